import { apiGet, apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { LiveScore } from '../../components/live-score/score';

export type Match = Schemas['MatchItem'];
/** Match-odds summary: the best price to back and to lay per runner (null: none offered). */
export type OddsSummary = Schemas['OddsSummary'];
export type RunnerOdds = Schemas['RunnerOdds'];
/** One match's odds line as the list stream sends it. */
export type ListOdds = Schemas['ListOdds'];
export type Sport = Schemas['SportItem'];
export type Series = Schemas['SeriesItem'];

/** While the list stream is down, the lists are fetched again this often. */
export const LIST_REFRESH_MS = 5_000;
/**
 * While the list stream is live it carries the prices; the list itself (which matches, in play
 * or not) is fetched again this often.
 */
export const LIST_MEMBERSHIP_MS = 30_000;

/** The list stream of one sport's matches, or of every sport's. */
export function listStreamUrl(list: number | 'all', ticket: string): string {
  return `/api/stream?list=${encodeURIComponent(String(list))}&ticket=${encodeURIComponent(ticket)}`;
}

/**
 * The matches with a streamed odds line applied: the line replaces the match's odds when it is
 * the same market (or the match had none yet); lines of matches not listed change nothing, and
 * nor do they bring back a grid to a match whose result is declared (the server drops its grid).
 */
export function applyListOdds(matches: Match[], line: ListOdds): Match[] {
  let changed = false;
  const next = matches.map((m) => {
    if (m.match_id !== line.match_id || (m.odds && m.odds.market_id !== line.odds.market_id)) return m;
    if (!m.odds && (m.finished || m.result)) return m;
    changed = true;
    return { ...m, odds: line.odds };
  });
  return changed ? next : matches;
}

/**
 * The list with one match's live state from the stream's `score` event: its score, result and
 * whether it is in play. A match not in the list leaves it as it is.
 */
export function applyListScore(matches: Match[], live: LiveScore): Match[] {
  const at = matches.findIndex((m) => m.match_id === live.match_id);
  if (at < 0) return matches;
  const next = [...matches];
  next[at] = { ...matches[at], in_play: live.in_play, score: live.in_play ? live.score : null, result: live.result };
  return next;
}

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
