// A casino table kept current: `casino/roundState`, refetched whenever the live stream
// (`stream?casino=`, docs/api.md "Live stream") says the round took a step — opened, closed,
// dealt, settled — and once more a moment after `settled`, so the caller's bets show won or
// lost and the balance moves. The stream carries no table, only the news.
//
// Polling stays as the safety net: slow (TABLE_LIVE_POLL_MS) while the stream is live, in case
// an event is lost, and every TABLE_POLL_MS, as before the stream, while it is down. The
// countdown does not depend on either: it runs on the local clock from each answer.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { LiveStream, browserEventSource, getStreamTicket, parseEventData, type StreamState } from '../../api/live-stream';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { getRoundState, roundStateKey, roundStreamUrl, type RoundEvent, type TableNow } from './table-api';

/** How often the table asks for the round while the stream is down (pauses while the tab is hidden). */
export const TABLE_POLL_MS = 1000;
/** How often it asks while the stream is live: only a guard against a lost event. */
export const TABLE_LIVE_POLL_MS = 5000;
/** The second look after a round settled. */
export const SETTLED_FOLLOW_UP_MS = 1000;

export const isNotFound = (error: unknown) => error instanceof ApiError && error.httpStatus === 404;

/** The table's polling interval for the stream's state. */
export function tablePollMs(connection: StreamState): number {
  return connection === 'live' ? TABLE_LIVE_POLL_MS : TABLE_POLL_MS;
}

/** The table of the game with this id ("4") or code ("dt6"), and the stream's state. */
export function useCasinoTable(idOrCode: string) {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<StreamState>('connecting');
  const table = useQuery({
    queryKey: roundStateKey(idOrCode),
    queryFn: () => getRoundState(idOrCode),
    staleTime: 0,
    refetchInterval: (query) => (isNotFound(query.state.error) ? false : tablePollMs(connection)),
    refetchIntervalInBackground: false,
  });
  // The stream names games by code; the page may have been opened by id.
  const gameCode = table.data?.game_code;

  useEffect(() => {
    if (!gameCode) return undefined;
    const key = roundStateKey(idOrCode);
    const refetch = () => queryClient.refetchQueries({ queryKey: key, exact: true });
    let followUp: ReturnType<typeof setTimeout> | undefined;
    const stream = new LiveStream({
      getTicket: getStreamTicket,
      openSource: browserEventSource(),
      url: (ticket) => roundStreamUrl(gameCode, ticket),
      events: {
        round: (data) => {
          const event = parseEventData<RoundEvent>(data);
          if (!event || typeof event.phase !== 'string') return;
          void refetch();
          if (event.phase !== 'settled') return;
          if (followUp !== undefined) clearTimeout(followUp);
          followUp = setTimeout(() => {
            followUp = undefined;
            void refetch().then(() => {
              const mine = queryClient.getQueryData<TableNow | null>(key)?.my_bets ?? [];
              if (mine.length > 0) void refreshBalanceNow(queryClient);
            });
          }, SETTLED_FOLLOW_UP_MS);
        },
      },
      onState: setConnection,
    });
    stream.start();
    return () => {
      stream.stop();
      if (followUp !== undefined) clearTimeout(followUp);
    };
  }, [idOrCode, gameCode, queryClient]);

  return { table, connection };
}
