// The live market stream of one match (crates/server/src/api/stream.rs).
//
// EventSource cannot send an Authorization header, so each connection first asks
// `stream/ticket` and opens `GET /api/stream?match_id=…&ticket=…`. The server sends a
// `snapshot` event (every market of the match) and then `market` events (one changed market,
// at most 5 a second each). Books in the stream are public: positions and fancy books are
// empty there, and come from `match/matchDetail`; a `mine` event ({market_id}) tells this
// user that their own bets, positions or exposure in that market changed.
//
// When the stream fails (or cannot start) the client polls instead, every POLL_MS, and tries
// the stream again after a growing pause (BACKOFF_MS), going back to the stream as soon as it
// opens. EventSource's own reconnect is not used: a fresh ticket is needed after a minute.
import type { MarketBook } from './api';

export const POLL_MS = 2_000;
/** Pauses before each reconnect attempt; the last repeats. */
export const BACKOFF_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** The part of `EventSource` this module uses (a fake in tests). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** `connecting`: first attempt; `live`: the stream is open; `polling`: the stream is down, polling meanwhile. */
export type StreamState = 'connecting' | 'live' | 'polling' | 'stopped';

export interface MatchStreamOptions {
  matchId: number;
  /** A stream ticket; null when the session ended (the stream then stops for good). */
  getTicket: () => Promise<string | null>;
  /** Opens an event source; null where the browser has none (polling only). */
  openSource: ((url: string) => EventSourceLike) | null;
  url: (matchId: number, ticket: string) => string;
  onSnapshot: (markets: MarketBook[]) => void;
  onMarket: (market: MarketBook) => void;
  /** The caller's own figures in this market changed (a bet matched, lapsed, settled…). */
  onMine?: (marketId: number) => void;
  /** Refetches the match while the stream is down. */
  poll: () => unknown;
  onState?: (state: StreamState) => void;
  pollMs?: number;
  backoffMs?: readonly number[];
}

export class MatchStream {
  private readonly options: MatchStreamOptions;
  private source: EventSourceLike | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private failures = 0;
  /** Bumped by every connect and by stop(), so late answers of an old attempt are ignored. */
  private generation = 0;
  private state: StreamState = 'stopped';

  constructor(options: MatchStreamOptions) {
    this.options = options;
  }

  get currentState(): StreamState {
    return this.state;
  }

  start(): void {
    if (this.state !== 'stopped') return;
    if (!this.options.openSource) {
      // No EventSource here: polling is the only way.
      this.setState('polling');
      this.startPolling();
      return;
    }
    this.setState('connecting');
    void this.connect();
  }

  stop(): void {
    this.generation += 1;
    this.closeSource();
    this.stopPolling();
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.setState('stopped');
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    let ticket: string | null;
    try {
      ticket = await this.options.getTicket();
    } catch {
      if (generation === this.generation) this.fail();
      return;
    }
    if (generation !== this.generation) return;
    if (ticket === null) {
      this.stop();
      return;
    }
    let source: EventSourceLike;
    try {
      source = this.options.openSource!(this.options.url(this.options.matchId, ticket));
    } catch {
      this.fail();
      return;
    }
    this.source = source;
    const current = () => generation === this.generation && this.source === source;
    source.addEventListener('open', () => {
      if (!current()) return;
      this.failures = 0;
      this.stopPolling();
      this.setState('live');
    });
    source.addEventListener('snapshot', (event) => {
      if (!current()) return;
      const markets = parse<MarketBook[]>(event.data);
      if (Array.isArray(markets)) this.options.onSnapshot(markets);
    });
    source.addEventListener('market', (event) => {
      if (!current()) return;
      const market = parse<MarketBook>(event.data);
      if (market && typeof market === 'object' && 'market_id' in market) this.options.onMarket(market);
    });
    source.addEventListener('mine', (event) => {
      if (!current()) return;
      const mine = parse<{ market_id?: unknown }>(event.data);
      if (mine && typeof mine.market_id === 'number') this.options.onMine?.(mine.market_id);
    });
    source.addEventListener('error', () => {
      if (current()) this.fail();
    });
  }

  /** The stream is down: poll meanwhile and try again after the next pause. */
  private fail(): void {
    this.closeSource();
    this.setState('polling');
    this.startPolling();
    const backoff = this.options.backoffMs ?? BACKOFF_MS;
    const pause = backoff[Math.min(this.failures, backoff.length - 1)];
    this.failures += 1;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, pause);
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined) return;
    this.pollOnce();
    this.pollTimer = setInterval(() => this.pollOnce(), this.options.pollMs ?? POLL_MS);
  }

  /** A failed poll is only a missed refresh: the next one comes anyway. */
  private pollOnce(): void {
    try {
      void Promise.resolve(this.options.poll()).catch(() => undefined);
    } catch {
      // As above.
    }
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private closeSource(): void {
    this.source?.close();
    this.source = null;
  }

  private setState(state: StreamState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onState?.(state);
  }
}

function parse<T>(data: unknown): T | null {
  if (typeof data !== 'string') return null;
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}
