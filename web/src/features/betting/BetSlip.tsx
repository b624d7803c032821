import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { BUTTON_VALUES_KEY, getButtonValues } from '../../api/button-values';
import { betErrorMessage } from '../../api/bet-refusal';
import { ApiError } from '../../api/client';
import type { MarketBook } from '../../api/match-stream';
import { LimitLeftLine } from '../../components/LimitLeft';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { toastError, toastInfo, toastSuccess } from '../../lib/toast';
import { matchDetailKey, openBetsKey, placeBet, type PlaceBetResult } from './api';
import { placedWords } from './bet-outcome';
import { formatOdds, parseOddsText, tickDown, tickUp } from './ladder';
import { useFlash } from '../../hooks/useFlash';
import { sideLabel } from '../../lib/bet-record';
import { acceptRate, housePrice, newClientRef, notPlacedMessage, placeBody, rateChange, slipBet, slipProblems, type SlipState } from './selection';
import { formatMinorMoney } from '../../lib/format';
import { commissionMinor, preview } from './slip-math';
import { commissionText } from '../../lib/rules-topic';
import { acceptsMove, usePreferences } from './preferences';

/** A submission that failed to reach the server: a retry of the same bet reuses its client_ref. */
interface Unsure {
  body: string;
  clientRef: string;
}

/**
 * The bet slip: the picked runner and side, the odds (− and + step one ladder tick; house
 * markets take the posted rate), the stake with the Game stake buttons, the preview, and Place.
 * During an in-play bet delay the button counts down. Every submission carries a client_ref;
 * after a network error the same bet is resent with the same one, so it is never placed twice.
 */
export function BetSlip({
  market,
  runnerName,
  slip,
  onChange,
  onClose,
  onPlaced,
}: {
  market: MarketBook;
  runnerName: string;
  slip: SlipState;
  onChange: (slip: SlipState) => void;
  onClose: () => void;
  onPlaced: (result: PlaceBetResult) => void;
}) {
  const { t } = useTranslation('betting');
  const queryClient = useQueryClient();
  const buttons = useQuery({ queryKey: BUTTON_VALUES_KEY, queryFn: getButtonValues, staleTime: 60_000 });
  const gameButtons = (buttons.data ?? []).filter((b) => b.type === 'Game');
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [unsure, setUnsure] = useState<Unsure | null>(null);
  const [placing, setPlacing] = useState<{ delayS: number; startedMs: number } | null>(null);
  const countdown = useCountdown(placing);

  const exchange = market.type !== 'bookmaker' && market.type !== 'fancy';
  const house = exchange ? null : housePrice(market, slip.pick);
  const houseFlash = useFlash(house ? `${house.line ?? ''}/${house.rate}` : '');
  const preferences = usePreferences();
  const accept = preferences.accept_rate_changes;
  const problems = slipProblems(market, slip, accept);
  // A move the bettor accepts unasked: the slip follows the posted rate, so its figures are
  // the ones the server will strike (it takes the posted rate itself, accept_rate_changes).
  const moved = exchange ? null : rateChange(market, slip);
  const follows = moved !== null && acceptsMove(accept, slip.pick.side, moved.from, moved.to);
  useEffect(() => {
    if (follows) onChange(acceptRate(market, slip));
  }, [follows, market, slip, onChange]);
  const marketRefuses = problems.some((p) => p.field === 'market');
  // A moved rate is a question with its own Accept button, asked at once.
  const rateQuestion = problems.find((p) => p.field === 'rate')?.message ?? null;
  // Letters or a bad price show at once; "enter a stake/odds" only after a try.
  const shown = problems.filter(
    (p) =>
      p.field !== 'rate' &&
      (attempted || p.field === 'market' || (p.field === 'stake' && slip.stakeText !== '') || (p.field === 'odds' && slip.oddsText !== '')),
  );
  const bet = slipBet(market, slip);
  const figures = bet ? preview(bet.pricing, bet.side, bet.price, bet.stake) : null;

  const set = (change: Partial<SlipState>) => {
    setServerError(null);
    onChange({ ...slip, ...change });
  };
  const step = (direction: 1 | -1) => {
    const current = parseOddsText(slip.oddsText);
    const start = current ?? (direction === 1 ? 100 : 100_100);
    set({ oddsText: formatOdds(direction === 1 ? tickUp(start) : tickDown(start)) });
  };

  async function submit() {
    setAttempted(true);
    setServerError(null);
    if (placing) return;
    // A market not taking bets (ball running, suspended) is said to have refused this press,
    // and the slip keeps saying so until the bettor acts: the live status alone would vanish as
    // the market reopens, leaving a slip that looks as if the press did nothing.
    if (marketRefuses) {
      setServerError(notPlacedMessage(market, slip.pick));
      return;
    }
    if (problems.length > 0) return;
    const body = placeBody(market, slip, accept);
    const fingerprint = JSON.stringify(body);
    const clientRef = unsure?.body === fingerprint ? unsure.clientRef : newClientRef();
    setPlacing({ delayS: market.in_play ? market.bet_delay_s : 0, startedMs: Date.now() });
    try {
      const result = await placeBet({ ...body, client_ref: clientRef });
      setUnsure(null);
      if (!result) return; // the session ended; the app is on its way to the login page
      announce(result);
      void refreshBalanceNow(queryClient);
      void queryClient.invalidateQueries({ queryKey: matchDetailKey(market.match_id), exact: true });
      void queryClient.invalidateQueries({ queryKey: openBetsKey(market.match_id), exact: true });
      setAttempted(false);
      onPlaced(result);
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 0) {
        setUnsure({ body: fingerprint, clientRef });
        setServerError(t('slip.unreachable'));
        return;
      }
      if (error instanceof ApiError && error.httpStatus === 503) {
        // The exchange is briefly unavailable (its database, a market being checked): the bet
        // was not placed, or its placing could not be confirmed. Either way the same bet goes
        // again with the same client_ref, which can never place it twice.
        setUnsure({ body: fingerprint, clientRef });
        const message = t('slip.sendAgain', { message: error.message });
        setServerError(message);
        toastError(message);
        return;
      }
      setUnsure(null);
      const message = betErrorMessage(error);
      setServerError(message);
      toastError(message);
      if (error instanceof ApiError && error.httpStatus === 409) {
        // Odds changed or the market stopped: show what is posted now.
        void queryClient.invalidateQueries({ queryKey: matchDetailKey(market.match_id), exact: true });
      }
    } finally {
      setPlacing(null);
    }
  }

  const side = slip.pick.side;
  return (
    <div className={`bet-slip ${side === 'back' || side === 'yes' ? 'back' : 'lay'}`} data-testid="bet-slip">
      <div className="slip-head">
        <span>
          <b data-testid="slip-side">{sideLabel(side)}</b> <span data-testid="slip-runner">{runnerName}</span>
          {market.name !== runnerName && <span className="muted small"> · {market.name}</span>}
        </span>
        <button type="button" className="slip-close" aria-label={t('slip.close')} onClick={onClose} data-testid="slip-close">
          ×
        </button>
      </div>
      <div className="slip-fields">
        <label className="slip-field">
          <span>{exchange ? t('slip.odds') : market.type === 'fancy' ? t('slip.lineRate') : t('slip.rate')}</span>
          {exchange ? (
            <span className="odds-stepper">
              <button type="button" aria-label={t('slip.tickDown')} onClick={() => step(-1)} data-testid="odds-down">
                −
              </button>
              <input
                inputMode="decimal"
                value={slip.oddsText}
                onChange={(e) => set({ oddsText: e.target.value })}
                aria-label={t('slip.odds')}
                data-testid="slip-odds"
              />
              <button type="button" aria-label={t('slip.tickUp')} onClick={() => step(1)} data-testid="odds-up">
                +
              </button>
            </span>
          ) : (
            <output className={`house-price${houseFlash ? ' flash' : ''}`} data-testid="slip-rate">
              {slip.taken ? (slip.taken.line !== undefined ? `${slip.taken.line} / ${slip.taken.rate}` : slip.taken.rate) : '-'}
            </output>
          )}
        </label>
        <label className="slip-field">
          <span>{t('slip.stake')}</span>
          <input
            inputMode="decimal"
            value={slip.stakeText}
            onChange={(e) => set({ stakeText: e.target.value })}
            aria-label={t('slip.stake')}
            data-testid="slip-stake"
          />
        </label>
      </div>
      {gameButtons.length > 0 && (
        <div className="stake-buttons" data-testid="stake-buttons">
          {gameButtons.map((b) => (
            <button key={`${b.button_name}-${b.button_value}`} type="button" onClick={() => set({ stakeText: String(b.button_value) })} data-testid="stake-button">
              {b.button_name}
            </button>
          ))}
        </div>
      )}
      <LimitLeftLine kind="loss" />
      {exchange && (
        <label className="checkbox slip-keep" title={t('slip.keepInPlayTitle')}>
          <input type="checkbox" checked={Boolean(slip.keepInPlay)} onChange={(e) => set({ keepInPlay: e.target.checked })} data-testid="slip-keep-in-play" />
          {t('slip.keepInPlay')}
        </label>
      )}
      <dl className="slip-preview" data-testid="slip-preview">
        <div>
          <dt>{t('slip.profit')}</dt>
          <dd data-testid="slip-profit">{formatMinorMoney(figures ? figures.profit : 0)}</dd>
        </div>
        <div>
          <dt>{t('slip.liability')}</dt>
          <dd data-testid="slip-liability">{formatMinorMoney(figures ? figures.liability : 0)}</dd>
        </div>
        {market.commission_bp > 0 && (
          // Commission is taken from net winnings on the whole market at settlement; this is the
          // bet's profit were it the bettor's only bet there.
          <div title={t('slip.commissionTitle')}>
            <dt data-testid="slip-commission">{t('slip.netOf', { commission: commissionText(market.commission_bp) })}</dt>
            <dd data-testid="slip-net-profit">{formatMinorMoney(figures ? figures.profit - commissionMinor(figures.profit, market.commission_bp) : 0)}</dd>
          </div>
        )}
      </dl>
      {rateQuestion && (
        <div className="notice slip-rate-change" role="alert" data-testid="rate-changed">
          <p data-testid="rate-changed-text">{rateQuestion}</p>
          <button
            type="button"
            className="btn btn-small btn-primary"
            onClick={() => {
              setServerError(null);
              onChange(acceptRate(market, slip));
            }}
            data-testid="accept-rate"
          >
            {t('slip.accept')}
          </button>
        </div>
      )}
      {(shown.length > 0 || serverError) && (
        <div className="slip-errors" role="alert" data-testid="slip-error">
          {serverError ? <p>{serverError}</p> : shown.map((p) => <p key={p.field}>{p.message}</p>)}
        </div>
      )}
      {placing && placing.delayS > 0 && (
        <p className="notice slip-delay" data-testid="bet-delay">
          <Trans t={t} i18nKey="slip.delay" values={{ seconds: countdown }} components={[<b key="seconds" data-testid="bet-delay-seconds" />]} />
        </p>
      )}
      <div className="slip-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('slip.cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={Boolean(placing) || Boolean(rateQuestion)} data-testid="place-bet">
          {placing ? (placing.delayS > 0 ? t('slip.placingIn', { seconds: countdown }) : t('slip.placing')) : t('slip.placeBet')}
        </button>
      </div>
    </div>
  );
}

/** Seconds left of the bet delay, counting down while a placement waits. */
function useCountdown(placing: { delayS: number; startedMs: number } | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!placing || placing.delayS <= 0) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [placing]);
  if (!placing) return 0;
  // Until the first tick, `now` may predate this placement: count from its start.
  const elapsedMs = Math.max(0, now - placing.startedMs);
  return Math.max(0, Math.ceil(placing.delayS - elapsedMs / 1000));
}

/** The outcome toast: matched, partly matched or waiting, in the app's words (the server's are English). */
function announce(result: PlaceBetResult): void {
  const message = placedWords(result);
  if (result.status === 'matched') toastSuccess(message);
  else toastInfo(message);
}
