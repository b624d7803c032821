// The line under the bet slip after a bet is placed, kept true to the bet as it stands: the
// placement's answer ("Bet placed, waiting to be matched.") is only true at that moment, and a
// bet matched a minute later must not still say it waits.
import { i18n } from '../../i18n';
import { formatMoney } from '../../lib/format';
import type { OpenBets, PlaceBetResult } from './api';

export type PlacementStatus = PlaceBetResult['status'];

export interface BetOutcome {
  status: PlacementStatus;
  text: string;
}

/**
 * The outcome line of a placed bet, from the caller's open bets on the match: the placement's
 * answer while the bet is where the placement left it; the words for its new state once more of
 * it has matched; null once it is no longer open (lapsed, cancelled,
 * settled: the open bets and the statement say what became of it). Open bets fetched before
 * the placement (`betsAtMs < placedAtMs`) say nothing about it yet.
 */
export function outcomeNow(result: PlaceBetResult, placedAtMs: number, bets: OpenBets | undefined, betsAtMs: number): BetOutcome | null {
  const placed = { status: result.status, text: placedWords(result) };
  if (!bets || betsAtMs < placedAtMs) return placed;
  // A part-matched bet is on both lists: its matched part and what still waits.
  const waiting = bets.unmatched.find((b) => b.bet_id === result.bet_id);
  const matched = bets.matched.find((b) => b.bet_id === result.bet_id);
  if (!waiting && !matched) return null;
  const status: PlacementStatus = waiting ? (waiting.matched > 0 ? 'partially_matched' : 'unmatched') : 'matched';
  if (status === result.status) return placed;
  return { status, text: statusWords(status, waiting?.matched ?? 0) };
}

/**
 * What a placement's answer says, in the app's language: the engine's words for its state
 * (engine/market_task/placement.rs), which the server sends in English only.
 */
export function placedWords(result: PlaceBetResult): string {
  if (result.repeated) return i18n.t('betting:outcome.repeated');
  return statusWords(result.status, result.size_matched);
}

function statusWords(status: PlacementStatus, matched: number): string {
  switch (status) {
    case 'matched':
      return i18n.t('betting:outcome.matched');
    case 'partially_matched':
      return i18n.t('betting:outcome.partlyMatched', { amount: formatMoney(matched) });
    case 'unmatched':
      return i18n.t('betting:outcome.waiting');
  }
}
