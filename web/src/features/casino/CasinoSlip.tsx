import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { betErrorMessage } from '../../api/bet-refusal';
import { BUTTON_VALUES_KEY, getButtonValues } from '../../api/button-values';
import { ApiError } from '../../api/client';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { formatMinorMoney } from '../../lib/format';
import { decimalText, parseStake } from '../../lib/money';
import { toastError, toastSuccess } from '../../lib/toast';
import { potentialReturn } from './table';
import { placeCasinoBet, roundStateKey, type CasinoMarket } from './table-api';

/** Why a typed stake cannot be sent, in words; null when it can (the server checks its limits). */
export function casinoStakeProblem(text: string): string | null {
  if (text.trim() === '') return 'Enter a stake.';
  const stake = parseStake(text);
  if (stake === null) return 'The stake must be a number such as 100 or 250.50.';
  if (stake === 0) return 'The stake must be more than 0.';
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
      toastSuccess(`Bet placed: ${market.name} at ${market.odds} for ${formatMinorMoney(stake)}.`);
      setAttempted(false);
      void refreshBalanceNow(queryClient);
      void queryClient.invalidateQueries({ queryKey: roundStateKey(tableKey) });
      onClose();
    } catch (error) {
      const message =
        error instanceof ApiError && error.httpStatus === 0
          ? 'Could not reach the server, so the bet may or may not have been placed. Check My bets this round before you try again.'
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
    <section className="casino-panel casino-slip bet-slip back" data-testid="casino-slip" aria-label="Bet slip">
      <div className="slip-head">
        <span>
          <b data-testid="casino-slip-market">{market.name}</b> <span className="muted small">· round {roundId}</span>
        </span>
        <button type="button" className="slip-close" aria-label="Close the bet slip" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="slip-fields">
        <label className="slip-field">
          <span>Odds</span>
          <output className="house-price" data-testid="casino-slip-odds">
            {market.odds}
          </output>
        </label>
        <label className="slip-field">
          <span>Stake</span>
          <input inputMode="decimal" value={stakeText} onChange={(e) => setStake(e.target.value)} aria-label="Stake" data-testid="casino-stake" />
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
      <dl className="slip-preview">
        <div>
          <dt>Returns</dt>
          <dd data-testid="casino-slip-return">{formatMinorMoney(back)}</dd>
        </div>
        <div>
          <dt>Profit</dt>
          <dd>{formatMinorMoney(Math.max(0, back - stake))}</dd>
        </div>
      </dl>
      {market.family === 'pair-plus' && <p className="muted small">Pair Plus pays by the hand made, from {market.odds} up: see the Rules.</p>}
      {!bettingOpen && <p className="notice small">Betting on this round has closed. Wait for the next round.</p>}
      {(shownProblem || serverError) && (
        <div className="slip-errors" role="alert" data-testid="casino-slip-error">
          <p>{serverError ?? shownProblem}</p>
        </div>
      )}
      <div className="slip-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={placing || !bettingOpen} data-testid="casino-place-bet">
          {placing ? 'Placing…' : 'Place Bet'}
        </button>
      </div>
    </section>
  );
}
