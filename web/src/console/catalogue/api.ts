// The catalogue's server calls: sports, series and matches to pick from (the client app's own
// reads), and creating series, matches and markets (admin/…/create, audited on the server).
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type MatchItem = Schemas['MatchItem'];
export type CreatedId = Schemas['CreatedId'];
export type CreatedMarket = Schemas['CreatedMarket'];
export interface Sport { sport_id: number; name: string }
export interface Series { series_id: number; name: string; sport_id: number }

export const sportsKey = ['console', 'catalogue', 'sports'] as const;
export const seriesKey = (sportId: number) => ['console', 'catalogue', 'series', sportId] as const;
export const matchesKey = (sportId: number) => ['console', 'catalogue', 'matches', sportId] as const;

export function getSports(): Promise<Answer<Sport[]>> {
  return apiPost<Sport[]>('sport/getSports', {});
}

export function getSeries(sportId: number): Promise<Answer<Series[]>> {
  return apiPost<Series[]>('series/getSeries', { sport_id: sportId });
}

export function getMatches(sportId: number): Promise<Answer<MatchItem[]>> {
  return apiPost<MatchItem[]>('match/getMatches', { sport_id: sportId });
}

export function createSeries(sportId: number, name: string): Promise<Answer<CreatedId>> {
  return apiPost<CreatedId>('admin/series/create', { sport_id: sportId, name });
}

export interface NewMatch {
  series_id: number;
  name: string;
  /** ISO-8601 with a zone. */
  open_date: string;
  venue?: string;
}

export function createMatch(match: NewMatch): Promise<Answer<CreatedId>> {
  return apiPost<CreatedId>('admin/match/create', match);
}

export type MarketKind = 'match_odds' | 'bookmaker' | 'fancy' | 'win' | 'place';

export interface NewMarket {
  match_id: number;
  type: MarketKind;
  name: string;
  runners: string[];
  /** Plain decimal text. */
  min_stake: string;
  max_stake: string;
  bet_delay_s: number;
  /** How many runners a place market pays (the server's default is 3). */
  winners?: number;
}

export function createMarket(market: NewMarket): Promise<Answer<CreatedMarket>> {
  return apiPost<CreatedMarket>('admin/market/create', market);
}
