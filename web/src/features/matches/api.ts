import { apiGet, apiPost, dataOr, isMissingEndpoint } from '../../api/client';

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
  odds?: unknown;
}

export interface Sport {
  sport_id: number;
  name: string;
  is_active: number;
  order?: number;
}

export interface Market {
  market_id: string | number;
  name: string;
  type: string;
  status: string;
  in_play?: boolean;
  min_stake?: number;
  max_stake?: number;
  runners?: { selection_id: number | string; name: string }[];
}

export interface MatchDetail {
  match: Match;
  markets: Market[];
}

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

/**
 * The match and its markets from `match/matchDetail`; until the server has that call, the
 * match from `match/getMatches` with no markets.
 */
export async function getMatchDetail(matchId: number, sportId?: number): Promise<MatchDetail | null> {
  try {
    return dataOr(await apiPost<MatchDetail>('match/matchDetail', { match_id: matchId }), null);
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
  }
  const matches = await getMatches(sportId ? { sport_id: sportId } : {});
  const match = matches.find((m) => Number(m.match_id) === matchId);
  return match ? { match, markets: [] } : null;
}

/** In-play first, then by start time. */
export function sortMatches(matches: Match[]): Match[] {
  return [...matches].sort(
    (a, b) => Number(Boolean(b.in_play)) - Number(Boolean(a.in_play)) || Date.parse(a.open_date) - Date.parse(b.open_date),
  );
}
