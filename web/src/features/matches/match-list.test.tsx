import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSource } from '../../testing/fake-event-source';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import { applyListOdds, applyListScore, type ListOdds, type Match } from './api';
import { MatchList } from './MatchList';
import { isTwoWay, listColumns, oddsColumns } from './odds-columns';
import { listStream } from './useLiveList';

const football = {
  match_id: 501,
  name: 'Arsenal v Liverpool',
  match_name: 'Arsenal v Liverpool',
  open_date: '2026-11-22T14:00:00.000Z',
  sport_id: 1,
  sport_name: 'Football',
  in_play: false,
  has_fancy: false,
  has_bookmaker: false,
  odds: {
    market_id: 61,
    status: 'open' as const,
    runners: [
      { selection_id: 1, name: 'Arsenal', back: 2.2, lay: 2.22, back_size: 1250, lay_size: 40 },
      { selection_id: 2, name: 'The Draw', back: 3.4, lay: 3.45, back_size: null, lay_size: null },
      { selection_id: 3, name: 'Liverpool', back: 3.1, lay: null, back_size: null, lay_size: null },
    ],
  },
};
const cricket = {
  match_id: 401,
  name: 'India v Australia',
  match_name: 'India v Australia',
  open_date: '2026-11-23T09:30:00.000Z',
  sport_id: 4,
  sport_name: 'Cricket',
  in_play: true,
  has_fancy: true,
  has_bookmaker: true,
  odds: { market_id: 41, status: 'open' as const, runners: [{ selection_id: 7, name: 'India', back: 1.8, lay: 1.81, back_size: null, lay_size: null }, { selection_id: 8, name: 'Australia', back: 2.2, lay: 2.24, back_size: null, lay_size: null }] },
};
const later = { ...cricket, match_id: 402, name: 'NZ v SA', match_name: 'NZ v SA', in_play: false, has_fancy: false, has_bookmaker: false, open_date: '2026-11-22T09:30:00.000Z', odds: null };

describe('match lists', () => {
  it('put the draw under X and leave X out for two-way matches', () => {
    expect(isTwoWay(football)).toBe(false);
    expect(isTwoWay(cricket)).toBe(true);
    expect(isTwoWay({ sport_id: 2, odds: null })).toBe(true);
    expect(listColumns([cricket, later])).toEqual(['1', '2']);
    expect(listColumns([cricket, football])).toEqual(['1', 'X', '2']);
    expect(listColumns([{ ...football, odds: null }])).toEqual(['1', 'X', '2']);
    expect(oddsColumns(football.odds).map((r) => r?.name ?? null)).toEqual(['Arsenal', 'The Draw', 'Liverpool']);
    expect(oddsColumns(cricket.odds).map((r) => r?.name ?? null)).toEqual(['India', null, 'Australia']);
    expect(oddsColumns(null)).toEqual([null, null, null]);
  });

  it('show in-play first, badges, start at UTC+5:30 and prices that open the slip', async () => {
    storeSession();
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/sport/getSports': { data: [{ sport_id: 4, name: 'Cricket', is_active: 1 }, { sport_id: 1, name: 'Football', is_active: 1 }] },
      'POST /api/match/getMatches': { data: [later, football, cricket] },
    });
    renderApp('/');
    const lists = await screen.findAllByTestId('match-list');
    const cricketRows = within(lists[0]).getAllByTestId('match-row');
    expect(cricketRows.map((r) => r.dataset.matchId)).toEqual(['401']);
    const live = cricketRows[0];
    expect(within(live).getByTestId('in-play')).toBeInTheDocument();
    expect(within(live).getByTestId('badge-bookmaker')).toBeInTheDocument();
    expect(within(live).getByTestId('badge-fancy')).toBeInTheDocument();
    expect(live).toHaveTextContent('23/11/2026 15:00:00');
    // Cricket has no draw: the list has no X column and each row two pairs.
    expect(within(lists[0]).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Game', '1', '2']);
    expect([...live.querySelectorAll('.odds .price')].map((td) => td.textContent)).toEqual(['1.8', '1.81', '2.2', '2.24']);
    // A phone hides the list's heading row: each strip carries its own outcomes' headings.
    expect([...within(live).getByTestId('outcome-labels').children].map((l) => l.textContent)).toEqual(['1', '2']);
    expect([...within(lists[1]).getByTestId('match-row').querySelectorAll('.odds .price')].map((td) => td.textContent)).toEqual(['-', '-', '-', '-']);
  });

  it('show the In-Play block first, then a tab per sport with its matches to come', async () => {
    storeSession();
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/sport/getSports': { data: [{ sport_id: 4, name: 'Cricket', is_active: 1 }, { sport_id: 1, name: 'Football', is_active: 1 }] },
      'POST /api/match/getMatches': { data: [later, football, cricket] },
    });
    renderApp('/');
    const block = await screen.findByTestId('in-play-block');
    expect(within(block).getAllByTestId('match-row').map((r) => r.dataset.matchId)).toEqual(['401']);
    const tabs = screen.getAllByTestId('sport-tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Cricket', 'Football']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getAllByTestId('match-row').map((r) => r.dataset.matchId)).toEqual(['402']);
    expect(block.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await userEvent.setup().click(tabs[1]);
    const footballRow = within(screen.getByRole('tabpanel')).getByTestId('match-row');
    expect(within(screen.getByRole('tabpanel')).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Game', '1', 'X', '2']);
    expect([...footballRow.querySelectorAll('.odds .price')].map((td) => td.textContent)).toEqual(['2.2', '2.22', '3.4', '3.45', '3.1', '-']);
    expect([...within(footballRow).getByTestId('outcome-labels').children].map((l) => l.textContent)).toEqual(['1', 'X', '2']);
    // Sizes under the prices.
    expect([...footballRow.querySelectorAll('.odds')].slice(0, 2).map((td) => td.querySelector('.size')?.textContent)).toEqual(['1250', '40']);
    expect(screen.getByTestId('view-all')).toHaveAttribute('href', '#/all-sports/1');
    const lay = within(footballRow).getAllByTestId('list-lay')[1];
    expect(lay).toHaveAttribute('href', '#/game-details/1/501?market=61&selection=2&side=lay&price=3.45');

    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/match/matchDetail': { httpStatus: 404, message: 'There is no match with id 501.' }, 'POST /api/bet/openBets': { data: { matched: [], unmatched: [] } } });
    await userEvent.setup().click(lay);
    expect(window.location.hash).toBe('#/game-details/1/501?market=61&selection=2&side=lay&price=3.45');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('There is no match with id 501. Back to home');
  });
});

describe('live list prices', () => {
  const line = (match_id: number, market_id: number, back: number, status: 'open' | 'suspended' | 'ball_running' = 'open'): ListOdds => ({
    match_id,
    odds: { market_id, status, runners: [{ selection_id: 7, name: 'India', back, lay: back + 0.02, back_size: 500, lay_size: 300 }] },
  });

  it("take a match's score from the stream and show it on its in-play row", () => {
    const list = [cricket, later] as unknown as Match[];
    const score = { sport: 'football' as const, goals: [2, 1], minute: 70 };
    const scored = applyListScore(list, { match_id: 401, sport_id: 4, in_play: true, score, result: null });
    expect(scored[0].score).toEqual(score);
    expect(scored[1]).toBe(list[1]);
    expect(applyListScore(list, { match_id: 999, sport_id: 4, in_play: true, score, result: null })).toBe(list);
    render(
      <MemoryRouter>
        <MatchList matches={scored} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('score-line')).toHaveTextContent("India2 - 1Australia70'");
    // The match ends: out of play, no score line on its row.
    const ended = applyListScore(scored, { match_id: 401, sport_id: 4, in_play: false, score, result: 'India won 2-1' });
    expect(ended[0]).toMatchObject({ in_play: false, score: null, result: 'India won 2-1' });
  });

  it('apply a line to its match only when it is the same market', () => {
    const list = [cricket, later] as unknown as Match[];
    const moved = applyListOdds(list, line(401, 41, 1.9));
    expect(moved[0].odds?.runners[0].back).toBe(1.9);
    expect(moved[1]).toBe(list[1]);
    // Another market of the match, or a match not listed: nothing changes.
    expect(applyListOdds(list, line(401, 99, 5))).toBe(list);
    expect(applyListOdds(list, line(999, 41, 5))).toBe(list);
    // A match without odds yet takes its first line; one whose result is declared does not.
    expect(applyListOdds(list, line(402, 50, 3))[1].odds?.market_id).toBe(50);
    const over = [{ ...later, result: 'NZ won by 4 wickets' }] as unknown as Match[];
    expect(applyListOdds(over, line(402, 50, 3))).toBe(over);
  });

  describe('the stream', () => {
    beforeEach(() => {
      vi.useFakeTimers();
      FakeSource.opened = [];
    });
    afterEach(() => vi.useRealTimers());

    it('follows the list by sport and hands on the snapshot and each line', async () => {
      const applied: ListOdds[][] = [];
      const scores: unknown[] = [];
      const poll = vi.fn();
      const stream = listStream(4, (lines) => applied.push(lines), {
        poll,
        onScore: (score) => scores.push(score),
        getTicket: () => Promise.resolve('t1'),
        openSource: (url) => new FakeSource(url),
      });
      stream.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(FakeSource.last().url).toBe('/api/stream?list=4&ticket=t1');
      FakeSource.last().emit('open');
      FakeSource.last().emit('snapshot', [line(401, 41, 1.8), { junk: true }]);
      FakeSource.last().emit('odds', line(401, 41, 1.85, 'ball_running'));
      FakeSource.last().emit('odds', { match_id: 'x' });
      expect(applied).toEqual([[line(401, 41, 1.8)], [line(401, 41, 1.85, 'ball_running')]]);
      const goal = { match_id: 401, sport_id: 4, in_play: true, score: { sport: 'football', goals: [1, 0], minute: 9 }, result: null };
      FakeSource.last().emit('score', goal);
      FakeSource.last().emit('score', { match_id: 'x' });
      expect(scores).toEqual([goal]);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(poll).not.toHaveBeenCalled();
      // The stream fails: the list is polled meanwhile.
      FakeSource.last().emit('error');
      expect(poll).toHaveBeenCalledTimes(1);
      stream.stop();
    });
  });
});

describe('a suspended row', () => {
  it('carries one band across its prices instead of a label on the numbers', async () => {
    storeSession();
    const suspended = { ...cricket, odds: { ...cricket.odds, status: 'ball_running' as const } };
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/sport/getSports': { data: [{ sport_id: 4, name: 'Cricket', is_active: 1 }] },
      'POST /api/match/getMatches': { data: [suspended] },
    });
    renderApp('/');
    const row = await screen.findByTestId('match-row');
    const odds = within(row).getByTestId('match-odds');
    expect(odds).toHaveClass('suspended');
    expect(within(odds).getByTestId('row-overlay')).toHaveTextContent('Ball Running');
    // The prices are there (hidden under the band), and none of them opens the slip.
    expect(within(row).queryAllByTestId('list-back')).toHaveLength(0);
    expect(within(row).queryByTestId('in-play')).toBeInTheDocument();
  });
});
