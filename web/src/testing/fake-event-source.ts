import type { EventSourceLike } from '../api/live-stream';

/**
 * A stand-in for the browser's EventSource that the test drives by hand (jsdom has none):
 * pass `(url) => new FakeSource(url)` as a stream's `openSource`, or stub the global
 * `EventSource` with the class. Every source opened is in `FakeSource.opened`.
 */
export class FakeSource implements EventSourceLike {
  static opened: FakeSource[] = [];
  readonly url: string;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(url: string) {
    this.url = url;
    FakeSource.opened.push(this);
  }
  /** The newest source opened. */
  static last(): FakeSource {
    return FakeSource.opened[FakeSource.opened.length - 1];
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  /** Sends an event; `data` goes as JSON (none when undefined). */
  emit(type: string, data?: unknown) {
    const event = new MessageEvent(type, { data: data === undefined ? undefined : JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
