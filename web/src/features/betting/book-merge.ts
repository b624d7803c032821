// Folding the public stream into the caller's match detail. Stream books carry no positions
// and no fancy book (they are the same for every listener), so those stay as the last
// `match/matchDetail` said until it is fetched again.
import type { MarketBook } from '../../api/match-stream';
import type { MatchDetail, OpenBets } from './api';

export function mergeMarket(previous: MarketBook | undefined, incoming: MarketBook): MarketBook {
  if (!previous) return incoming;
  const positions = new Map(previous.runners.map((r) => [r.selection_id, r.position]));
  return {
    ...incoming,
    runners: incoming.runners.map((r) => ({ ...r, position: positions.get(r.selection_id) ?? r.position })),
    book: previous.book,
  };
}

/** Each market carries its match's in-play flag: the match turning in play shows at once. */
function withInPlay(detail: MatchDetail, market: MarketBook | undefined): MatchDetail['match'] {
  return market && market.in_play !== detail.match.in_play ? { ...detail.match, in_play: market.in_play } : detail.match;
}

export function applyMarket(detail: MatchDetail, market: MarketBook): MatchDetail {
  const index = detail.markets.findIndex((m) => m.market_id === market.market_id);
  const markets = [...detail.markets];
  if (index < 0) markets.push(market);
  else markets[index] = mergeMarket(markets[index], market);
  return { ...detail, match: withInPlay(detail, market), markets };
}

export function applySnapshot(detail: MatchDetail, markets: MarketBook[]): MatchDetail {
  const previous = new Map(detail.markets.map((m) => [m.market_id, m]));
  return { ...detail, match: withInPlay(detail, markets[0]), markets: markets.map((m) => mergeMarket(previous.get(m.market_id), m)) };
}

/**
 * Whether a change to a market means the caller's own figures may have changed, so the
 * match detail (positions), open bets and balance should be fetched again: a market the page
 * did not know, a market that closed or was voided (settled), or one where the caller has
 * unmatched bets (someone may have matched them).
 */
export function changeTouchesCaller(previous: MarketBook | undefined, incoming: MarketBook, openBets: OpenBets | undefined): boolean {
  if (!previous) return true;
  if (previous.status !== incoming.status && (incoming.status === 'closed' || incoming.status === 'void')) return true;
  return (openBets?.unmatched ?? []).some((bet) => bet.market_id === incoming.market_id);
}
