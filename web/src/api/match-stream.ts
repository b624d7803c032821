// The live market stream of one match (crates/server/src/api/stream.rs), on the shared stream
// client (live-stream.ts: tickets, reconnects with back-off, polling while down). The match page
// follows it (features/betting/useMatchBook.ts) and so do the console's desk and risk screens,
// so it lives here rather than in either.
//
// The server sends a `snapshot` event (every market of the match) and then `market` events
// (one changed market, at most 5 a second each), and a `score` event (the match's live state:
// in play or not, score, result) after the snapshot and whenever it is set. Books in the stream are public: positions
// and fancy books are empty there, and come from `match/matchDetail`; a `mine` event
// ({market_id}) tells this user that their own bets, positions or exposure in that market
// changed.
import type { Schemas } from './contract';
import { LiveStream, parseEventData, type EventSourceLike, type StreamState } from './live-stream';

/** One market's book: what the stream sends, and what `match/matchDetail` lists. */
export type MarketBook = Schemas['MarketBook'];
/** The stream's `score` event. */
type LiveScore = Schemas['LiveScore'];

export function streamUrl(matchId: number, ticket: string): string {
  return `/api/stream?match_id=${encodeURIComponent(matchId)}&ticket=${encodeURIComponent(ticket)}`;
}

export interface MatchStreamOptions {
  matchId: number;
  /** A stream ticket; null when the session ended (the stream then stops for good). */
  getTicket: () => Promise<string | null>;
  /** Opens an event source; null where the browser has none (polling only). */
  openSource: ((url: string) => EventSourceLike) | null;
  url: (matchId: number, ticket: string) => string;
  onSnapshot: (markets: MarketBook[]) => void;
  onMarket: (market: MarketBook) => void;
  /** The match's score, result or in-play state changed (and once after each snapshot). */
  onScore?: (score: LiveScore) => void;
  /** The caller's own figures in this market changed (a bet matched, lapsed, settled…). */
  onMine?: (marketId: number) => void;
  /** Refetches the match while the stream is down. */
  poll: () => unknown;
  onState?: (state: StreamState) => void;
  pollMs?: number;
  backoffMs?: readonly number[];
}

export class MatchStream extends LiveStream {
  constructor({ matchId, url, onSnapshot, onMarket, onScore, onMine, ...rest }: MatchStreamOptions) {
    super({
      ...rest,
      url: (ticket) => url(matchId, ticket),
      events: {
        snapshot: (data) => {
          const markets = parseEventData<MarketBook[]>(data);
          if (Array.isArray(markets)) onSnapshot(markets);
        },
        market: (data) => {
          const market = parseEventData<MarketBook>(data);
          if (market && typeof market === 'object' && 'market_id' in market) onMarket(market);
        },
        score: (data) => {
          const score = parseEventData<LiveScore>(data);
          if (score && typeof score === 'object' && score.match_id === matchId) onScore?.(score);
        },
        mine: (data) => {
          const mine = parseEventData<{ market_id?: unknown }>(data);
          if (mine && typeof mine.market_id === 'number') onMine?.(mine.market_id);
        },
      },
    });
  }
}
