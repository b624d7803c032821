import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { LiveStream } from '../../api/live-stream';
import { onCarriers, onNotice, type Notice } from '../../api/notice-feed';
import { FakeSource } from '../../testing/fake-event-source';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import { toastNew } from './useNotices';

const toasts: string[] = [];
const show = (n: Notice) => toasts.push(n.text);

const notice = (id: number, text = `notice ${id}`, kind: Notice['kind'] = 'matched', facts: Partial<Notice> = {}): Notice => ({
  id,
  kind,
  bet_id: 7,
  market_id: 3,
  match_id: 2,
  text,
  at: '2026-11-29T08:00:00.000Z',
  match_name: 'India v Australia',
  market_name: 'Match Odds',
  amount: 100,
  commission: 0,
  bet: { side: 'back', price: '2.50', line: null, stake: 100, selection_name: 'India' },
  login: null,
  ...facts,
});

describe('notices', () => {
  beforeEach(() => {
    toasts.length = 0;
    FakeSource.opened = [];
  });

  it('toasts each notice once, and nothing the first list held', () => {
    toastNew(11, [notice(4), notice(3)], true, show);
    expect(toasts).toEqual([]);
    toastNew(11, [notice(5, 'fifth')], false, show);
    toastNew(11, [notice(5, 'fifth')], false, show);
    expect(toasts).toEqual(['fifth']);
    // A refetched list with two newer ones: both, oldest first; the streamed one not again.
    toastNew(11, [notice(7, 'seventh'), notice(6, 'sixth'), notice(5, 'fifth')], true, show);
    expect(toasts).toEqual(['fifth', 'sixth', 'seventh']);
    // Another bettor in this tab starts afresh.
    toastNew(12, [notice(9)], true, show);
    expect(toasts).toHaveLength(3);
  });

  it('counts the unread on the bell, lists them when opened and marks them read', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/notices?page=1&limit=20': {
        data: {
          rows: [
            notice(10, 'the server’s English', 'new_device', {
              bet_id: null, market_id: null, match_id: null, match_name: null, market_name: null, bet: null, amount: 0,
              login: { device: 'Chrome 131 on Windows 10', ip: '203.0.113.7' },
            }),
            notice(9, 'the server’s English', 'partially_matched', { amount: 150, bet: { side: 'lay', price: '2.50', line: null, stake: 400, selection_name: 'A' } }),
            notice(8, 'the server’s English', 'settled', { bet_id: null, bet: null, amount: 600, commission: 12 }),
          ],
          total: 3,
          page: 1,
          limit: 20,
          unread: 3,
          last_read_id: 7,
        },
      },
      'POST /api/user/notices/read': { data: { last_read_id: 10 } },
    });
    storeSession();
    renderApp('/');
    expect(await screen.findByTestId('notice-count')).toHaveTextContent('3');
    await userEvent.setup().click(screen.getByTestId('notice-bell'));
    const items = within(screen.getByTestId('notice-list')).getAllByTestId('notice-item');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('New deviceNew log-in from Chrome 131 on Windows 10 at 203.0.113.7.Not you?'),
      expect.stringContaining('Part matched₹150.00 of your ₹400.00 lay bet on A at 2.50 matched; the rest waits (India v Australia · Match Odds).'),
      expect.stringContaining('Settled' + 'India v Australia · Match Odds settled: you won ₹600.00, commission ₹12.00, net ₹588.00.'),
    ]);
    // A new device's notice leads to where the bettor can end the other sessions.
    expect(within(items[0]).getByRole('link', { name: /Not you\?/ })).toHaveAttribute('href', '#/login-history');
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/user/notices/read')?.body).toEqual({ up_to_id: 10 }),
    );
    // The list loaded first was there before: no toast for it.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a page stream hands its notice events to the feed and counts as carrying them while started', async () => {
    const counts: number[] = [];
    const stop = onCarriers((count) => counts.push(count));
    const heard: number[] = [];
    const unheard = onNotice((n) => heard.push(n.id));
    const page = new LiveStream({
      getTicket: () => Promise.resolve('t'),
      openSource: (url) => new FakeSource(url),
      url: (ticket) => `/api/stream?match_id=1&ticket=${ticket}`,
      events: {},
    });
    page.start();
    await waitFor(() => expect(FakeSource.opened).toHaveLength(1));
    FakeSource.last().emit('notice', notice(21));
    FakeSource.last().emit('notice', 'not json');
    expect(heard).toEqual([21]);
    page.stop();
    page.stop();
    // The feed's own stream neither counts nor publishes: it handles its events itself.
    const own = new LiveStream({
      getTicket: () => Promise.resolve('t'),
      openSource: (url) => new FakeSource(url),
      url: (ticket) => `/api/stream?notices=1&ticket=${ticket}`,
      events: {},
      carriesNotices: false,
    });
    own.start();
    await waitFor(() => expect(FakeSource.opened).toHaveLength(2));
    FakeSource.last().emit('notice', notice(22));
    own.stop();
    expect(heard).toEqual([21]);
    expect(counts).toEqual([0, 1, 0]);
    stop();
    unheard();
  });
});
