// Live prices in the match lists: the list stream (`GET stream?list=…`, docs/api.md "Live
// stream") on the shared stream client, applied to the list's cached `match/getMatches` answer
// (prices from `odds` events, in-play scores from `score` events).
// While the stream is down the client polls the list instead (LIST_REFRESH_MS); while it is live
// the list is fetched only now and then (LIST_MEMBERSHIP_MS), for matches that came or went.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LiveStream, browserEventSource, getStreamTicket, parseEventData, type StreamState } from '../../api/live-stream';
import type { LiveScore } from '../../components/live-score/score';
import { applyListOdds, applyListScore, LIST_MEMBERSHIP_MS, LIST_REFRESH_MS, listStreamUrl, type ListOdds, type Match } from './api';

const isLine = (value: unknown): value is ListOdds =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ListOdds).match_id === 'number' &&
  typeof (value as ListOdds).odds?.market_id === 'number' &&
  Array.isArray((value as ListOdds).odds.runners);

/** A list stream that applies each line it receives with `apply`. */
export function listStream(
  list: number | 'all',
  apply: (lines: ListOdds[]) => void,
  options: {
    poll: () => unknown;
    onScore?: (score: LiveScore) => void;
    onState?: (state: StreamState) => void;
    openSource?: ReturnType<typeof browserEventSource>;
    getTicket?: () => Promise<string | null>;
  },
): LiveStream {
  return new LiveStream({
    getTicket: options.getTicket ?? getStreamTicket,
    openSource: options.openSource === undefined ? browserEventSource() : options.openSource,
    url: (ticket) => listStreamUrl(list, ticket),
    events: {
      snapshot: (data) => {
        const lines = parseEventData<unknown[]>(data);
        if (Array.isArray(lines)) apply(lines.filter(isLine));
      },
      odds: (data) => {
        const line = parseEventData<unknown>(data);
        if (isLine(line)) apply([line]);
      },
      score: (data) => {
        const score = parseEventData<LiveScore>(data);
        if (score && typeof score === 'object' && typeof score.match_id === 'number') options.onScore?.(score);
      },
    },
    poll: options.poll,
    pollMs: LIST_REFRESH_MS,
    onState: options.onState,
  });
}

/**
 * Follows the list stream for the cached list under `queryKey`; answers how often that query
 * should refetch by itself (false while the stream's fallback polls for it).
 */
export function useLiveList(queryKey: QueryKey, list: number | 'all' | null): number | false {
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  const keyText = JSON.stringify(queryKey);
  useEffect(() => {
    if (list === null) return undefined;
    const key = JSON.parse(keyText) as QueryKey;
    const stream = listStream(
      list,
      (lines) =>
        queryClient.setQueryData<Match[]>(key, (matches) => (matches ? lines.reduce(applyListOdds, matches) : matches)),
      {
        poll: () => queryClient.refetchQueries({ queryKey: key, exact: true }),
        onScore: (score) => {
          const matches = queryClient.getQueryData<Match[]>(key);
          if (matches?.some((m) => m.match_id === score.match_id)) {
            queryClient.setQueryData<Match[]>(key, (current) => (current ? applyListScore(current, score) : current));
          } else {
            // The list has not arrived yet (or came without this match): a score applied to
            // nothing would be lost until the next ball, so fetch the list again, which has it.
            void queryClient.invalidateQueries({ queryKey: key, exact: true });
          }
        },
        onState: setState,
      },
    );
    stream.start();
    return () => stream.stop();
  }, [list, keyText, queryClient]);
  return state === 'live' ? LIST_MEMBERSHIP_MS : state === 'polling' ? false : LIST_REFRESH_MS;
}
