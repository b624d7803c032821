import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import { oddsColumns } from './odds-columns';

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
      { selection_id: 1, name: 'Arsenal', back: 2.2, lay: 2.22, back_size: null, lay_size: null },
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
  it('put the draw under X and leave X empty for two runners', () => {
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
    expect(cricketRows.map((r) => r.dataset.matchId)).toEqual(['401', '402']);
    const live = cricketRows[0];
    expect(within(live).getByTestId('in-play')).toBeInTheDocument();
    expect(within(live).getByTestId('badge-bookmaker')).toBeInTheDocument();
    expect(within(live).getByTestId('badge-fancy')).toBeInTheDocument();
    expect(live).toHaveTextContent('23/11/2026 15:00:00');
    expect([...live.querySelectorAll('td.odds')].map((td) => td.textContent)).toEqual(['1.8', '1.81', '-', '-', '2.2', '2.24']);
    expect([...cricketRows[1].querySelectorAll('td.odds')].map((td) => td.textContent)).toEqual(['-', '-', '-', '-', '-', '-']);

    const footballRow = within(lists[1]).getByTestId('match-row');
    expect([...footballRow.querySelectorAll('td.odds')].map((td) => td.textContent)).toEqual(['2.2', '2.22', '3.4', '3.45', '3.1', '-']);
    const lay = within(footballRow).getAllByTestId('list-lay')[1];
    expect(lay).toHaveAttribute('href', '#/game-details/1/501?market=61&selection=2&side=lay&price=3.45');

    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/match/matchDetail': { httpStatus: 404, message: 'There is no match with id 501.' }, 'POST /api/bet/openBets': { data: { matched: [], unmatched: [] } } });
    await userEvent.setup().click(lay);
    expect(window.location.hash).toBe('#/game-details/1/501?market=61&selection=2&side=lay&price=3.45');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('There is no match with id 501. Back to home');
  });
});
