import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import type { MarketBook } from '../../api/match-stream';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { i18n } from '../../i18n';
import { toastError, toastSuccess } from '../../lib/toast';
import { cancelAllBets, cancelBet, getOpenBets, matchDetailKey, openBetsKey, updateBet, type BetItem, type UpdateBetInput } from './api';
import { BetEditor } from './BetEditor';
import { betPrices } from '../../lib/bet-record';
import { sideLabel } from '../../lib/bet-record';

/** While the caller has unmatched bets, they may be matched at any moment: look again this often. */
const UNMATCHED_REFRESH_MS = 5_000;

/** The caller's open bets on a match, looked at again every few seconds while any is unmatched. */
export function useOpenBets(matchId: number) {
  return useQuery({
    queryKey: openBetsKey(matchId),
    queryFn: () => getOpenBets(matchId),
    staleTime: 0,
    refetchInterval: (query) => ((query.state.data?.unmatched.length ?? 0) > 0 ? UNMATCHED_REFRESH_MS : false),
  });
}

export type OpenBetsTab = 'matched' | 'unmatched';

/**
 * The caller's bets on this match: matched, and unmatched ones that can be cancelled. The tab
 * shown is the board's (`tab`, `onTab`), so that it stays as the bettor left it when the panel
 * moves between the side (a computer) and its own tab (a phone).
 */
export function OpenBetsPanel({
  matchId,
  markets,
  tab,
  onTab,
}: {
  matchId: number;
  markets: MarketBook[];
  tab: OpenBetsTab;
  onTab: (tab: OpenBetsTab) => void;
}) {
  const { t } = useTranslation('betting');
  const queryClient = useQueryClient();
  const bets = useOpenBets(matchId);
  const setTab = onTab;
  const [cancelling, setCancelling] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const matched = bets.data?.matched ?? [];
  const unmatched = bets.data?.unmatched ?? [];
  const list = tab === 'matched' ? matched : unmatched;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: openBetsKey(matchId), exact: true }),
      queryClient.invalidateQueries({ queryKey: matchDetailKey(matchId), exact: true }),
    ]);

  async function cancel(bet: BetItem) {
    setCancelling(bet.bet_id);
    try {
      const answer = await cancelBet(bet.bet_id);
      if (answer.data) toastSuccess(answer.message || t('openBets.cancelled'));
      void refreshBalanceNow(queryClient);
      await refresh();
    } catch (error) {
      toastError(errorMessage(error));
      void queryClient.invalidateQueries({ queryKey: openBetsKey(matchId), exact: true });
    } finally {
      setCancelling(null);
    }
  }

  async function save(input: UpdateBetInput) {
    setSaving(true);
    try {
      const answer = await updateBet(input);
      if (answer.data) toastSuccess(answer.message || t('openBets.updated'));
      setEditing(null);
    } catch (error) {
      toastError(errorMessage(error));
    } finally {
      setSaving(false);
      void refreshBalanceNow(queryClient);
      await refresh();
    }
  }

  async function cancelAll(marketId: number) {
    try {
      const answer = await cancelAllBets(marketId);
      toastSuccess(answer.message || t('openBets.cancelledCount', { count: answer.count }));
    } catch (error) {
      toastError(errorMessage(error));
    } finally {
      void refreshBalanceNow(queryClient);
      await refresh();
    }
  }

  /** The markets with unmatched bets of the caller's, in the order their bets are listed. */
  const unmatchedMarkets = [...new Set(unmatched.map((bet) => bet.market_id))];

  return (
    <section className="open-bets" data-testid="open-bets">
      <header className="market-head">
        <h2>{t('openBets.title')}</h2>
      </header>
      <div className="tabs compact" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'matched'} className={tab === 'matched' ? 'active' : undefined} onClick={() => setTab('matched')} data-testid="open-bets-matched-tab">
          {t('openBets.matchedTab', { count: matched.length })}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'unmatched'} className={tab === 'unmatched' ? 'active' : undefined} onClick={() => setTab('unmatched')} data-testid="open-bets-unmatched-tab">
          {t('openBets.unmatchedTab', { count: unmatched.length })}
        </button>
      </div>
      {bets.error ? (
        <p className="error-message">{errorMessage(bets.error)}</p>
      ) : list.length === 0 ? (
        <p className="empty-state small" data-testid="open-bets-empty">
          {bets.isPending ? t('openBets.loading') : tab === 'matched' ? t('openBets.noMatched') : t('openBets.noUnmatched')}
        </p>
      ) : (
        <>
          {tab === 'unmatched' && (
            <div className="cancel-all-row">
              {unmatchedMarkets.map((marketId) => (
                <button key={marketId} type="button" className="btn btn-small" onClick={() => void cancelAll(marketId)} data-testid="cancel-all" data-market-id={marketId}>
                  {t('openBets.cancelAll', { market: markets.find((m) => m.market_id === marketId)?.name ?? t('openBets.market', { id: marketId }) })}
                </button>
              ))}
            </div>
          )}
          <ul className="bet-list">
            {list.map((bet) => (
              <li key={`${tab}-${bet.bet_id}`} className={`bet-item ${bet.side === 'back' || bet.side === 'yes' ? 'back' : 'lay'}`} data-testid={`open-bet-${tab}`} data-bet-id={bet.bet_id}>
                <div className="bet-line">
                  <b>{describe(bet, markets)}</b>
                  <BetPrice bet={bet} type={marketType(bet, markets)} matchedTab={tab === 'matched'} />
                </div>
                <div className="bet-line small muted">
                  <span>
                    {tab === 'matched'
                      ? t('openBets.matchedOf', { amount: formatMoney(bet.matched), stake: formatMoney(bet.stake) })
                      : t('openBets.unmatchedOf', { amount: formatMoney(bet.remaining), stake: formatMoney(bet.stake) })}
                  </span>
                  <span>{formatIstDateTime(bet.date)}</span>
                </div>
                {tab === 'unmatched' && (
                  <div className="bet-actions">
                    {marketType(bet, markets) !== 'bookmaker' && marketType(bet, markets) !== 'fancy' && (
                      <button type="button" className="btn btn-small" onClick={() => setEditing(editing === bet.bet_id ? null : bet.bet_id)} data-testid="edit-bet">
                        {t('openBets.edit')}
                      </button>
                    )}
                    <button type="button" className="btn btn-small" disabled={cancelling === bet.bet_id} onClick={() => void cancel(bet)} data-testid="cancel-bet">
                      {cancelling === bet.bet_id ? t('openBets.cancelling') : t('openBets.cancel')}
                    </button>
                  </div>
                )}
                {tab === 'unmatched' && editing === bet.bet_id && (
                  <BetEditor bet={bet} saving={saving} onSave={(input) => void save(input)} onClose={() => setEditing(null)} />
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * The side and price: on the matched tab the average matched price with the one asked beside
 * it when they differ ("Back 3.80 · asked 3.75"); on the unmatched tab the price asked.
 */
function BetPrice({ bet, type, matchedTab }: { bet: BetItem; type: MarketBook['type'] | undefined; matchedTab: boolean }) {
  const { t } = useTranslation('betting');
  const { asked, matched } = betPrices(bet, type);
  const shown = matchedTab && matched !== null ? matched : asked;
  return (
    <span className="bet-price">
      {sideLabel(bet.side)} <b data-testid="open-bet-price">{shown}</b>
      {shown !== asked && (
        <span className="muted small" data-testid="open-bet-asked">
          {' '}
          {t('openBets.asked', { price: asked })}
        </span>
      )}
    </span>
  );
}

function marketType(bet: BetItem, markets: MarketBook[]): MarketBook['type'] | undefined {
  return markets.find((m) => m.market_id === bet.market_id)?.type;
}

/** "India · Match Odds", or a fancy's own name. */
function describe(bet: BetItem, markets: MarketBook[]): string {
  const market = markets.find((m) => m.market_id === bet.market_id);
  if (!market) return i18n.t('betting:openBets.market', { id: bet.market_id });
  const runner = market.runners.find((r) => r.selection_id === bet.selection_id);
  return runner ? `${runner.name} · ${market.name}` : market.name;
}
