import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MarketBook } from '../../api/match-stream';
import { Modal } from '../../components/Modal';
import { QueryState } from '../../components/QueryState';
import { formatMoney } from '../../lib/format';
import { getLadder, getPriceHistory, ladderKey, priceHistoryKey } from './api';
import { FullLadder } from './FullLadder';
import { formatOdds } from './ladder';
import { ladderRows } from './ladder-rows';
import { PriceChart } from './PriceChart';
import { statusProblem, type Pick } from './selection';

/**
 * A market change seen on the match's stream asks the ladder again after this pause, so that a
 * burst of changes (the stream sends at most 5 a second per market) is one request.
 */
const LIVE_REFRESH_MS = 250;

/**
 * One runner in depth, opened from its row: the full ladder and the price chart, as a dialog on
 * a wide screen and the whole screen on a phone. The ladder is asked again whenever the match's
 * stream changes this market (`market` is the page's live copy of it); the chart whenever the
 * market's total matched moves, the only time a new point can appear. A price clicked on the
 * ladder goes on the page's bet slip, as a price box does, and the dialog closes to show it.
 */
export function LadderModal({
  market,
  selectionId,
  onPick,
  onClose,
}: {
  market: MarketBook;
  selectionId: number;
  onPick: (pick: Pick) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('betting');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<'ladder' | 'chart'>('ladder');
  const marketId = market.market_id;
  const runner = market.runners.find((r) => r.selection_id === selectionId);
  const ladder = useQuery({
    queryKey: ladderKey(marketId, selectionId),
    queryFn: () => getLadder(marketId, selectionId),
    staleTime: 0,
    retry: false,
  });
  const history = useQuery({
    queryKey: priceHistoryKey(marketId, selectionId),
    queryFn: () => getPriceHistory(marketId, selectionId),
    enabled: tab === 'chart',
    staleTime: 0,
    retry: false,
  });

  // The page's copy of the market changes with every `market` event of the stream: ask again at
  // most once a pause (a throttle, not a debounce, so a busy market still refreshes).
  const seen = useRef(market);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const chartStale = useRef(false);
  useEffect(() => {
    if (seen.current === market) return;
    if (seen.current.total_matched !== market.total_matched) chartStale.current = true;
    seen.current = market;
    if (pending.current !== null) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: ladderKey(marketId, selectionId), exact: true });
      if (chartStale.current) {
        chartStale.current = false;
        void queryClient.invalidateQueries({ queryKey: priceHistoryKey(marketId, selectionId), exact: true });
      }
    }, LIVE_REFRESH_MS);
  }, [market, marketId, selectionId, queryClient]);
  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current);
    },
    [],
  );

  const data = ladder.data;
  const name = data?.name ?? runner?.name ?? '';
  const problem = statusProblem(market);
  const pick = (side: 'back' | 'lay', price: number) => {
    onPick({ marketId, selectionId, side, price });
    onClose();
  };

  return (
    <Modal title={`${name} · ${market.name}`} onClose={onClose} size="md" className="ladder-modal" testId="ladder-modal">
      <div className="ladder-summary" data-testid="ladder-summary">
        <span>
          {t('ladder.lastTraded')}{' '}
          <b data-testid="ladder-ltp">{data?.last_traded_price != null ? formatOdds(Math.round(data.last_traded_price * 100)) : '–'}</b>
        </span>
        <span>
          {t('ladder.matched')} <b data-testid="ladder-total">{formatMoney(data?.total_matched ?? 0)}</b>
        </span>
        {problem && (
          <span className="badge ladder-status" data-testid="ladder-status">
            {problem}
          </span>
        )}
      </div>
      <div className="tabs compact" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'ladder'} className={tab === 'ladder' ? 'active' : undefined} onClick={() => setTab('ladder')} data-testid="ladder-tab">
          {t('ladder.ladderTab')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'chart'} className={tab === 'chart' ? 'active' : undefined} onClick={() => setTab('chart')} data-testid="chart-tab">
          {t('ladder.chartTab')}
        </button>
      </div>
      {tab === 'ladder' ? (
        <QueryState isPending={ladder.isPending} error={ladder.error} isEmpty={!data} empty={t('ladder.unavailable')}>
          {data && <FullLadder rows={ladderRows(data)} runnerName={name} onPick={pick} />}
        </QueryState>
      ) : (
        <QueryState isPending={history.isPending} error={history.error} isEmpty={!history.data} empty={t('chart.unavailable')}>
          {history.data && <PriceChart history={history.data} />}
        </QueryState>
      )}
    </Modal>
  );
}
