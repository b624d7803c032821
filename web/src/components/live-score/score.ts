// A match's live state as the server holds it (admin/match/score, docs/api.md "A match's live
// state"): the score by sport, the result, whether the match is in play. The browser only shows
// it; nothing here makes a score up.
import type { Schemas } from '../../api/contract';

export type Score = Schemas['ScoreView'];
export type CricketScore = Extract<Score, { sport: 'cricket' }>;
/** The stream's `score` event. */
export type LiveScore = Schemas['LiveScore'];

/** What a match page needs to tell before, during and after play. */
export interface MatchState {
  in_play: boolean;
  finished: boolean;
  result: string | null;
}

/** Over for bettors: a result is declared, or every market is settled. */
export function hasEnded(match: MatchState, markets?: readonly { status: string }[]): boolean {
  if (match.result !== null || match.finished) return true;
  return !!markets && markets.length > 0 && markets.every((m) => m.status === 'closed' || m.status === 'void');
}

/** The two sides of an "A v B" match name (football, tennis), or null. */
export function sidesOf(name: string): [string, string] | null {
  const parts = name.split(/\s+(?:v|vs)\.?\s+/i);
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0].trim(), parts[1].trim()] : null;
}

/** A place in the language shown: {@link ordinal} in English; in Hindi पहला, दूसरा, तीसरा, चौथा, 5वां, छठा … */
export function placeName(n: number, language: string): string {
  return language === 'hi' ? (HINDI_ORDINALS[n] ?? `${n}वां`) : ordinal(n);
}

/** 1st, 2nd, 3rd, 4th … */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

const HINDI_ORDINALS: Record<number, string> = { 1: 'पहला', 2: 'दूसरा', 3: 'तीसरा', 4: 'चौथा', 6: 'छठा' };

/** "7.25", or "-" before a ball. */
export function rate(value: number | null): string {
  return value === null ? '-' : value.toFixed(2);
}
