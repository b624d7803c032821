import { apiGet, apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type Match = Schemas['MatchItem'];
/** Match-odds summary: the best price to back and to lay per runner (null: none offered). */
export type OddsSummary = Schemas['OddsSummary'];
export type RunnerOdds = Schemas['RunnerOdds'];
export type Sport = Schemas['SportItem'];
export type Series = Schemas['SeriesItem'];

/** Match lists show moving prices: fetched again this often (the match page itself streams). */
export const LIST_REFRESH_MS = 5_000;

export async function getMatches(filter: { sport_id?: number; series_id?: number } = {}): Promise<Match[]> {
  return dataOr(await apiPost<Match[]>('match/getMatches', { ...filter, is_active: 1 }), []);
}

/** Featured series for the menu (`match/getCupsForMenu`). */
export async function getCups(): Promise<Series[]> {
  return dataOr(await apiGet<Series[]>('match/getCupsForMenu'), []);
}

export async function getSeries(sport_id: number): Promise<Series[]> {
  return dataOr(await apiPost<Series[]>('series/getSeries', { sport_id, is_active: 1 }), []);
}

export async function getSports(): Promise<Sport[]> {
  return dataOr(await apiPost<Sport[]>('sport/getSports', { is_active: 1 }), []);
}

/** In-play first, then by start time. */
export function sortMatches(matches: Match[]): Match[] {
  return [...matches].sort(
    (a, b) => Number(Boolean(b.in_play)) - Number(Boolean(a.in_play)) || Date.parse(a.open_date) - Date.parse(b.open_date),
  );
}
