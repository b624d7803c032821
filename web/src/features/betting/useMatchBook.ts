// A match's markets and score kept live: `match/matchDetail` once, then the stream's changes folded in
// (polling every 2 s while the stream is down), and the caller's figures fetched again when a
// change may have touched them.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { browserEventSource, getStreamTicket, type StreamState } from '../../api/live-stream';
import { MatchStream, streamUrl } from '../../api/match-stream';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { getMatchDetail, matchDetailKey, openBetsKey, type MatchDetail, type OpenBets } from './api';
import { applyMarket, applySnapshot, changeTouchesCaller } from './book-merge';

/** Changes that touch the caller within this window cause one refetch. */
const FOLLOW_UP_MS = 400;

export function useMatchBook(matchId: number) {
  const queryClient = useQueryClient();
  const valid = Number.isFinite(matchId) && matchId > 0;
  const detail = useQuery({
    queryKey: matchDetailKey(matchId),
    queryFn: () => getMatchDetail(matchId),
    enabled: valid,
    staleTime: 0,
  });
  const [connection, setConnection] = useState<StreamState>('connecting');

  useEffect(() => {
    if (!valid) return undefined;
    const key = matchDetailKey(matchId);
    let followUp: ReturnType<typeof setTimeout> | undefined;
    const refreshCaller = () => {
      if (followUp !== undefined) return;
      followUp = setTimeout(() => {
        followUp = undefined;
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
        void queryClient.invalidateQueries({ queryKey: openBetsKey(matchId), exact: true });
        void refreshBalanceNow(queryClient);
      }, FOLLOW_UP_MS);
    };
    const stream = new MatchStream({
      matchId,
      getTicket: getStreamTicket,
      openSource: browserEventSource(),
      url: streamUrl,
      onSnapshot: (markets) => {
        const old = queryClient.getQueryData<MatchDetail | null>(key);
        if (!old) return;
        queryClient.setQueryData<MatchDetail | null>(key, applySnapshot(old, markets));
        const known = new Set(old.markets.map((m) => m.market_id));
        if (markets.some((m) => !known.has(m.market_id))) refreshCaller();
      },
      onMarket: (market) => {
        const old = queryClient.getQueryData<MatchDetail | null>(key);
        if (!old) return;
        const previous = old.markets.find((m) => m.market_id === market.market_id);
        queryClient.setQueryData<MatchDetail | null>(key, applyMarket(old, market));
        if (changeTouchesCaller(previous, market, queryClient.getQueryData<OpenBets>(openBetsKey(matchId)))) refreshCaller();
      },
      onScore: (live) => {
        const old = queryClient.getQueryData<MatchDetail | null>(key);
        if (!old) return;
        const next: MatchDetail = { ...old, match: { ...old.match, in_play: live.in_play, score: live.score, result: live.result } };
        queryClient.setQueryData<MatchDetail | null>(key, next);
      },
      onMine: refreshCaller,
      poll: () => queryClient.refetchQueries({ queryKey: key, exact: true }),
      onState: setConnection,
    });
    stream.start();
    return () => {
      stream.stop();
      if (followUp !== undefined) clearTimeout(followUp);
    };
  }, [matchId, valid, queryClient]);

  return { detail, connection };
}
