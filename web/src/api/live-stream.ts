// The live stream (crates/server/src/api/stream.rs, docs/api.md "Live stream"): one client for
// every page that follows something live — a match's markets (match-stream.ts), the match
// lists (features/matches/useLiveList.ts) or a casino table's rounds
// (features/casino/useCasinoTable.ts).
//
// EventSource cannot send an Authorization header, so each connection first asks
// `stream/ticket` and opens `GET /api/stream?…&ticket=…`; the caller names the events it
// listens to and gets each one's data as text.
//
// When the stream fails (or cannot start) the client polls instead, every POLL_MS, and tries
// the stream again after a growing pause (BACKOFF_MS), going back to the stream as soon as it
// opens. EventSource's own reconnect is not used: a fresh ticket is needed after a minute.
import { apiPost, dataOr } from './client';
import type { Schemas } from './contract';
import { countCarrier, publishNotice } from './notice-feed';

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

export interface LiveStreamOptions {
  /** A stream ticket; null when the session ended (the stream then stops for good). */
  getTicket: () => Promise<string | null>;
  /** Opens an event source; null where the browser has none (polling only). */
  openSource: ((url: string) => EventSourceLike) | null;
  /** The stream's address with this ticket. */
  url: (ticket: string) => string;
  /** The events listened to, by name, each given the event's data (text, usually JSON). */
  events: Record<string, (data: string) => void>;
  /** Refetches while the stream is down; absent: the caller polls by itself (see `onState`). */
  poll?: () => unknown;
  onState?: (state: StreamState) => void;
  pollMs?: number;
  backoffMs?: readonly number[];
  /**
   * Every stream sends the bettor's own `notice` events; by default they go to the tab's notice
   * feed (notice-feed.ts) and the stream counts as one that carries them while started. The
   * feed's own stream says false: it handles them itself and is not a page's stream.
   */
  carriesNotices?: boolean;
}

export class LiveStream {
  private readonly options: LiveStreamOptions;
  private source: EventSourceLike | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private failures = 0;
  /** Bumped by every connect and by stop(), so late answers of an old attempt are ignored. */
  private generation = 0;
  private state: StreamState = 'stopped';

  constructor(options: LiveStreamOptions) {
    this.options = options;
  }

  private get carriesNotices(): boolean {
    return this.options.carriesNotices ?? true;
  }

  get currentState(): StreamState {
    return this.state;
  }

  start(): void {
    if (this.state !== 'stopped') return;
    if (this.carriesNotices) countCarrier(1);
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
    if (this.state !== 'stopped' && this.carriesNotices) countCarrier(-1);
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
      source = this.options.openSource!(this.options.url(ticket));
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
    const events: Record<string, (data: string) => void> = this.carriesNotices
      ? { notice: publishNotice, ...this.options.events }
      : this.options.events;
    for (const [name, handle] of Object.entries(events)) {
      source.addEventListener(name, (event) => {
        if (current() && typeof event.data === 'string') handle(event.data);
      });
    }
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
    if (this.pollTimer !== undefined || !this.options.poll) return;
    this.pollOnce();
    this.pollTimer = setInterval(() => this.pollOnce(), this.options.pollMs ?? POLL_MS);
  }

  /** A failed poll is only a missed refresh: the next one comes anyway. */
  private pollOnce(): void {
    try {
      void Promise.resolve(this.options.poll?.()).catch(() => undefined);
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

/** An event's JSON data, or null when it is not JSON. */
export function parseEventData<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

/** A short-lived ticket to open a stream (EventSource cannot send headers). */
export async function getStreamTicket(): Promise<string | null> {
  return dataOr(await apiPost<Schemas['TicketData']>('stream/ticket', {}), null)?.ticket ?? null;
}

/** Opens the browser's own EventSource; null where there is none (jsdom, old browsers). */
export function browserEventSource(): ((url: string) => EventSourceLike) | null {
  return typeof EventSource === 'function' ? (url) => new EventSource(url) : null;
}
