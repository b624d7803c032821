import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../lib/query-client';
import { stubServer } from '../testing/fake-server';
import { storeSession } from '../testing/render';
import { BALANCE_REFRESH_MS, refreshBalanceNow, useBalance } from './useBalance';

function Probe({ enabled }: { enabled: boolean }) {
  const { data } = useBalance(enabled);
  return <span data-testid="probe">{data ? data.total_balance : 'none'}</span>;
}

afterEach(() => {
  vi.useRealTimers();
  queryClient.clear();
});

describe('balance polling', () => {
  it('asks every 5000 ms, goes on after an error, and refetches at once after a bet', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    storeSession();
    let n = 0;
    const calls = stubServer({
      'GET /api/user/getUserBalance': () => {
        n += 1;
        return n === 2 ? { httpStatus: 500, message: 'Server error' } : { data: { total_balance: n * 100, liability: 0 } };
      },
    });
    render(
      <QueryClientProvider client={queryClient}>
        <Probe enabled />
      </QueryClientProvider>,
    );
    const count = () => calls.filter((c) => c.path === '/api/user/getUserBalance').length;

    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(count()).toBe(1);
    expect(screen.getByTestId('probe')).toHaveTextContent('100');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(BALANCE_REFRESH_MS);
    });
    expect(count()).toBe(2); // this one fails, silently

    await act(async () => {
      await vi.advanceTimersByTimeAsync(BALANCE_REFRESH_MS);
    });
    expect(count()).toBe(3);
    expect(screen.getByTestId('probe')).toHaveTextContent('300');

    await act(async () => {
      await refreshBalanceNow();
    });
    expect(count()).toBe(4);
    await waitFor(() => expect(screen.getByTestId('probe')).toHaveTextContent('400'));
  });

  it('does not ask when disabled (the login page)', async () => {
    vi.useFakeTimers();
    const calls = stubServer({});
    render(
      <QueryClientProvider client={queryClient}>
        <Probe enabled={false} />
      </QueryClientProvider>,
    );
    // Two whole refresh periods pass on the page's clock: a poll would have asked twice.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2 * BALANCE_REFRESH_MS);
    });
    expect(calls).toHaveLength(0);
  });
});
