import { apiGet, apiPost, dataOr } from '../../api/client';

export interface Match {
  match_id: number;
  name: string;
  match_name: string;
  match_Date?: string;
  open_date: string;
  sport_id: number;
  sport_name: string;
  series_id?: number;
  series_name?: string;
  in_play?: boolean;
  has_fancy?: boolean;
  has_bookmaker?: boolean;
  /** Match-odds summary: the best price to back and to lay per runner (null: none offered). */
  odds?: OddsSummary | null;
}

export interface OddsSummary {
  market_id: number;
  status: string;
  runners: RunnerOdds[];
}

export interface RunnerOdds {
  selection_id: number;
  name: string;
  back: number | null;
  back_size?: number | null;
  lay: number | null;
  lay_size?: number | null;
}

export interface Sport {
  sport_id: number;
  name: string;
  is_active: number;
  order?: number;
}

/** Match lists show moving prices: fetched again this often (the match page itself streams). */
export const LIST_REFRESH_MS = 5_000;

export async function getMatches(filter: { sport_id?: number; series_id?: number } = {}): Promise<Match[]> {
  return dataOr(await apiPost<Match[]>('match/getMatches', { ...filter, is_active: 1 }), []);
}

export interface Series {
  series_id: number;
  name: string;
  sport_id: number;
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
