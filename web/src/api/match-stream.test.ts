import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSource } from '../testing/fake-event-source';
import type { StreamState } from './live-stream';
import { MatchStream, type MarketBook } from './match-stream';

const market = (id: number, status = 'open') => ({ market_id: id, status }) as unknown as MarketBook;

function setUp(overrides: { getTicket?: () => Promise<string | null>; openSource?: null } = {}) {
  const states: StreamState[] = [];
  const snapshots: MarketBook[][] = [];
  const changes: MarketBook[] = [];
  const mine: number[] = [];
  const poll = vi.fn();
  let tickets = 0;
  const stream = new MatchStream({
    matchId: 42,
    getTicket: overrides.getTicket ?? (() => Promise.resolve(`t${++tickets}`)),
    openSource: overrides.openSource === null ? null : (url) => new FakeSource(url),
    url: (matchId, ticket) => `/api/stream?match_id=${matchId}&ticket=${ticket}`,
    onSnapshot: (m) => snapshots.push(m),
    onMarket: (m) => changes.push(m),
    onMine: (marketId) => mine.push(marketId),
    poll,
    onState: (s) => states.push(s),
  });
  return { stream, states, snapshots, changes, mine, poll };
}

const last = () => FakeSource.last();

describe('the match stream client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSource.opened = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the stream with a ticket and hands on snapshots and market changes', async () => {
    const { stream, states, snapshots, changes, mine, poll } = setUp();
    stream.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().url).toBe('/api/stream?match_id=42&ticket=t1');
    last().emit('open');
    last().emit('snapshot', [market(1), market(2)]);
    last().emit('market', market(2, 'ball_running'));
    last().emit('market', undefined); // garbage is ignored
    last().emit('mine', { market_id: 2 });
    last().emit('mine', { market_id: 'x' }); // garbage is ignored
    expect(snapshots).toEqual([[market(1), market(2)]]);
    expect(changes).toEqual([market(2, 'ball_running')]);
    expect(mine).toEqual([2]);
    expect(states).toEqual(['connecting', 'live']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(poll).not.toHaveBeenCalled();
    stream.stop();
  });

  it('polls every 2 s while the stream is down and reconnects with a growing pause', async () => {
    const { stream, states, poll } = setUp();
    stream.start();
    await vi.advanceTimersByTimeAsync(0);
    last().emit('open');
    expect(states.at(-1)).toBe('live');

    // The connection drops: poll at once, then every 2 s.
    const first = last();
    first.emit('error');
    expect(first.closed).toBe(true);
    expect(states.at(-1)).toBe('polling');
    expect(poll).toHaveBeenCalledTimes(1);

    // First retry after 1 s, with a fresh ticket; it fails too.
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSource.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.opened).toHaveLength(2);
    expect(last().url).toContain('ticket=t2');
    last().emit('error');

    // Second retry waits 2 s; meanwhile the poll keeps its 2 s beat.
    await vi.advanceTimersByTimeAsync(1_999);
    expect(FakeSource.opened).toHaveLength(2);
    expect(poll).toHaveBeenCalledTimes(2); // at 0 and at 2 s
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.opened).toHaveLength(3);
    last().emit('error');

    // Third waits 4 s. Then the stream opens: polling stops, the pause resets.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(FakeSource.opened).toHaveLength(4);
    last().emit('open');
    expect(states.at(-1)).toBe('live');
    const polls = poll.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(poll).toHaveBeenCalledTimes(polls);

    last().emit('error');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSource.opened).toHaveLength(5);
    stream.stop();
  });

  it('treats a failed ticket request like a dropped stream', async () => {
    let calls = 0;
    const { stream, states, poll } = setUp({
      getTicket: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve('ok');
      },
    });
    stream.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSource.opened).toHaveLength(0);
    expect(states).toEqual(['connecting', 'polling']);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSource.opened).toHaveLength(1);
    stream.stop();
  });

  it('without EventSource it only polls; stop ends everything', async () => {
    const { stream, states, poll } = setUp({ openSource: null });
    stream.start();
    expect(states).toEqual(['polling']);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(poll).toHaveBeenCalledTimes(4); // at 0, 2, 4 and 6 s
    stream.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(poll).toHaveBeenCalledTimes(4);
    expect(states.at(-1)).toBe('stopped');
  });

  it('stops for good when the session has ended (no ticket), and ignores a stopped source', async () => {
    const { stream, states, poll } = setUp({ getTicket: () => Promise.resolve(null) });
    stream.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSource.opened).toHaveLength(0);
    expect(states).toEqual(['connecting', 'stopped']);
    expect(poll).not.toHaveBeenCalled();

    const other = setUp();
    other.stream.start();
    await vi.advanceTimersByTimeAsync(0);
    const source = last();
    other.stream.stop();
    expect(source.closed).toBe(true);
    source.emit('market', market(9));
    source.emit('error');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(other.changes).toEqual([]);
    expect(FakeSource.opened).toHaveLength(1);
  });
});
