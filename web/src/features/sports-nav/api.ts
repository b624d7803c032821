import { apiPost, dataOr } from '../../api/client';

export interface Sport {
  sport_id: number;
  name: string;
  is_active: number;
  order?: number;
}

export interface SeriesItem {
  series_id: number;
  name: string;
  sport_id: number;
}

export interface SportWithSeries {
  sport_id: number;
  name: string;
  series: SeriesItem[];
}

export interface MatchItem {
  match_id: number;
  name: string;
  match_name: string;
  match_Date?: string;
  open_date: string;
  sport_id: number;
  sport_name: string;
  series_id?: number;
  in_play?: boolean;
}

export async function getActiveSports(): Promise<Sport[]> {
  return dataOr(await apiPost<Sport[]>('sport/getSports', { is_active: 1 }), []);
}

/** is_sidebar_call 2: every active sport with its series (the header's call, 1, lists only series with matches). */
export async function getSidebarTree(): Promise<SportWithSeries[]> {
  return dataOr(await apiPost<SportWithSeries[]>('series/getSeriesHeader', { is_sidebar_call: 2 }), []);
}

export async function getSeriesMatches(sport_id: number, series_id: number): Promise<MatchItem[]> {
  return dataOr(await apiPost<MatchItem[]>('match/getMatches', { sport_id, series_id, is_active: 1 }), []);
}
