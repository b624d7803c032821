import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pageWindow, Pagination } from './Pagination';

describe('pagination', () => {
  it('links at most 7 pages around the current one', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(pageWindow(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('has Previous and Next, disabled at the ends', async () => {
    const onPage = vi.fn();
    const { rerender } = render(<Pagination page={1} total={95} limit={10} onPage={onPage} />);

    expect(screen.getByText('Previous')).toBeDisabled();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Previous', '1', '2', '3', '4', '5', '6', '7', 'Next']);
    await userEvent.click(screen.getByText('Next'));
    expect(onPage).toHaveBeenLastCalledWith(2);
    await userEvent.click(screen.getByText('5'));
    expect(onPage).toHaveBeenLastCalledWith(5);

    rerender(<Pagination page={10} total={95} limit={10} onPage={onPage} />);
    expect(screen.getByText('Next')).toBeDisabled();
    expect(screen.getByText('10')).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByText('Previous'));
    expect(onPage).toHaveBeenLastCalledWith(9);
  });
});
