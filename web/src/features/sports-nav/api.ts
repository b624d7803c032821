import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type Sport = Schemas['SportItem'];
export type SeriesItem = Schemas['SeriesItem'];
export type SportWithSeries = Schemas['SportWithSeries'];
export type MatchItem = Schemas['MatchItem'];

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
