import { describe, expect, it } from 'vitest';
import { findCasinoGames, groupSearchResults } from './search';

describe('search results', () => {
  it('groups by sport name with match name and the date at UTC+5:30', () => {
    const groups = groupSearchResults({
      Football: [{ match_id: 3, match_name: 'Arsenal v Liverpool', open_date: '2026-11-22T14:00:00.000Z', sport_id: 1, series_id: 9, name: 'Arsenal v Liverpool', match_Date: '2026-11-22T14:00:00.000Z', sport_name: 'Football' }],
      Cricket: [
        { match_id: 1, match_name: 'India v Australia', open_date: '2026-11-22T00:30:00.000Z', sport_id: 4, series_id: 9, name: 'India v Australia', match_Date: '2026-11-22T00:30:00.000Z', sport_name: 'Cricket' },
        { match_id: 2, match_name: 'Indian Premier League XI', open_date: '2026-11-23T18:29:59.000Z', sport_id: 4, series_id: 9, name: 'Indian Premier League XI', match_Date: '2026-11-23T18:29:59.000Z', sport_name: 'Cricket' },
      ],
      Tennis: [],
    });

    expect(groups).toEqual([
      {
        sport: 'Cricket',
        matches: [
          { match_id: 1, sport_id: 4, match_name: 'India v Australia', date: '22/11/2026 06:00:00' },
          { match_id: 2, sport_id: 4, match_name: 'Indian Premier League XI', date: '23/11/2026 23:59:59' },
        ],
      },
      { sport: 'Football', matches: [{ match_id: 3, sport_id: 1, match_name: 'Arsenal v Liverpool', date: '22/11/2026 19:30:00' }] },
    ]);
  });

  it('is empty for no answer', () => {
    expect(groupSearchResults(null)).toEqual([]);
    expect(groupSearchResults({})).toEqual([]);
  });

  it('finds casino games by name or exact code, ignoring case', () => {
    const games = [
      { match_id: 31, game_code: 'teen20', name: 'TP T20' },
      { match_id: 32, game_code: 'dt6', name: 'Dragon Tiger' },
    ] as Parameters<typeof findCasinoGames>[0];
    expect(findCasinoGames(games, ' tiger ')).toEqual([{ name: 'Dragon Tiger', path: '/casino/match/32' }]);
    expect(findCasinoGames(games, 'DT6')).toEqual([{ name: 'Dragon Tiger', path: '/casino/match/32' }]);
    expect(findCasinoGames(games, 'dt')).toEqual([]);
    expect(findCasinoGames(undefined, 'tp')).toEqual([]);
    expect(findCasinoGames(games, '  ')).toEqual([]);
  });
});
