import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { betErrorMessage } from '../../api/bet-refusal';
import { BUTTON_VALUES_KEY, getButtonValues } from '../../api/button-values';
import { ApiError } from '../../api/client';
import { LimitLeftLine } from '../../components/LimitLeft';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { i18n } from '../../i18n';
import { formatMinorMoney } from '../../lib/format';
import { decimalText, parseStake } from '../../lib/money';
import { toastError, toastSuccess } from '../../lib/toast';
import { potentialReturn } from './table';
import { placeCasinoBet, roundStateKey, type CasinoMarket } from './table-api';

/** Why a typed stake cannot be sent, in words; null when it can (the server checks its limits). */
export function casinoStakeProblem(text: string): string | null {
  if (text.trim() === '') return i18n.t('casino:slip.enterStake');
  const stake = parseStake(text);
  if (stake === null) return i18n.t('casino:slip.stakeNotNumber');
  if (stake === 0) return i18n.t('casino:slip.stakeNotPositive');
  return null;
}

/**
 * The casino bet slip: the picked market at its posted odds, the stake with the Casino stake
 * buttons, what a win returns, and Place Bet. The bet carries the odds exactly as posted, so
 * a change between the poll and the click is refused (409) and said in words, like every other
 * refusal; after a bet the balance and the table are fetched again at once.
 */
export function CasinoSlip({
  tableKey,
  roundId,
  market,
  bettingOpen,
  stakeText,
  onStakeText,
  onClose,
}: {
  /** The table's id or code in the route, for its query key. */
  tableKey: string;
  roundId: string;
  market: CasinoMarket;
  bettingOpen: boolean;
  stakeText: string;
  onStakeText: (text: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('casino');
  const queryClient = useQueryClient();
  const buttons = useQuery({ queryKey: BUTTON_VALUES_KEY, queryFn: getButtonValues, staleTime: 60_000 });
  const casinoButtons = (buttons.data ?? []).filter((b) => b.type === 'Casino');
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);

  const problem = casinoStakeProblem(stakeText);
  const shownProblem = problem && (attempted || stakeText.trim() !== '') ? problem : null;
  const stake = parseStake(stakeText) ?? 0;
  const back = potentialReturn(stake, market.odds);

  const setStake = (text: string) => {
    setServerError(null);
    onStakeText(text);
  };

  async function submit() {
    setAttempted(true);
    setServerError(null);
    if (problem || placing || !bettingOpen) return;
    setPlacing(true);
    try {
      const placed = await placeCasinoBet({ round_id: roundId, market: market.code, odds: market.odds, stake: decimalText(stake) });
      if (!placed) return; // the session ended; the app is on its way to the login page
      toastSuccess(t('slip.placed', { market: market.name, odds: market.odds, amount: formatMinorMoney(stake) }));
      setAttempted(false);
      void refreshBalanceNow(queryClient);
      void queryClient.invalidateQueries({ queryKey: roundStateKey(tableKey) });
      onClose();
    } catch (error) {
      const message =
        error instanceof ApiError && error.httpStatus === 0
          ? t('slip.unreachable')
          : betErrorMessage(error);
      setServerError(message);
      toastError(message);
      // Closed, odds changed, or unsure: show what the table says now.
      void queryClient.invalidateQueries({ queryKey: roundStateKey(tableKey) });
      if (error instanceof ApiError && error.httpStatus === 422) void refreshBalanceNow(queryClient);
    } finally {
      setPlacing(false);
    }
  }

  return (
    <section className="casino-panel casino-slip bet-slip back" data-testid="casino-slip" aria-label={t('slip.label')}>
      <div className="slip-head">
        <span>
          <b data-testid="casino-slip-market">{market.name}</b> <span className="muted small">{t('slip.round', { round: roundId })}</span>
        </span>
        <button type="button" className="slip-close" aria-label={t('slip.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <div className="slip-fields">
        <label className="slip-field">
          <span>{t('slip.odds')}</span>
          <output className="house-price" data-testid="casino-slip-odds">
            {market.odds}
          </output>
        </label>
        <label className="slip-field">
          <span>{t('slip.stake')}</span>
          <input inputMode="decimal" value={stakeText} onChange={(e) => setStake(e.target.value)} aria-label={t('slip.stake')} data-testid="casino-stake" />
        </label>
      </div>
      {casinoButtons.length > 0 && (
        <div className="stake-buttons" data-testid="casino-stake-buttons">
          {casinoButtons.map((b) => (
            <button key={`${b.button_name}-${b.button_value}`} type="button" onClick={() => setStake(String(b.button_value))}>
              {b.button_name}
            </button>
          ))}
        </div>
      )}
      <LimitLeftLine kind="loss" />
      <dl className="slip-preview">
        <div>
          <dt>{t('slip.returns')}</dt>
          <dd data-testid="casino-slip-return">{formatMinorMoney(back)}</dd>
        </div>
        <div>
          <dt>{t('slip.profit')}</dt>
          <dd>{formatMinorMoney(Math.max(0, back - stake))}</dd>
        </div>
      </dl>
      {market.family === 'pair-plus' && <p className="muted small">{t('slip.pairPlus', { odds: market.odds })}</p>}
      {!bettingOpen && <p className="notice small">{t('slip.closed')}</p>}
      {(shownProblem || serverError) && (
        <div className="slip-errors" role="alert" data-testid="casino-slip-error">
          <p>{serverError ?? shownProblem}</p>
        </div>
      )}
      <div className="slip-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('slip.cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={placing || !bettingOpen} data-testid="casino-place-bet">
          {placing ? t('slip.placing') : t('slip.placeBet')}
        </button>
      </div>
    </section>
  );
}
