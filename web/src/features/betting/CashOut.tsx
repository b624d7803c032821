import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../api/client';
import { refusalWords } from '../../api/refusal-words';
import type { MarketBook } from '../../api/match-stream';
import { refreshBalanceNow } from '../../hooks/useBalance';
import { formatMoney } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toast';
import { cashOut, cashOutQuoteKey, getCashOutQuote, matchDetailKey, openBetsKey, type CashOutQuote } from './api';
import { newClientRef } from './selection';

/** How often the value is asked again while nothing in the book changed. */
const REQUOTE_MS = 3_000;
/**
 * The soonest it is asked again after the last time when the book moves: an in-play book can
 * move several times a second, and each quote is a call on the market's own task.
 */
const MIN_REQUOTE_MS = 1_000;

/**
 * Cash Out on an exchange or bookmaker market (issue 32): while the bettor has a position here,
 * a button says what closing it now would leave them whatever wins, live (asked again whenever
 * the book or the position moves). Pressing it opens a panel with a slider for the part to cash
 * out (the rest stays open in proportion), each runner's position after, and the button that
 * places the hedge at the prices shown: the server places all of it at once or nothing
 * (crates/api/src/cash_out.rs).
 */
export function CashOutBar({ market }: { market: MarketBook }) {
  const { t } = useTranslation('betting');
  const [open, setOpen] = useState(false);
  const [percent, setPercent] = useState(100);
  const hasPosition = market.runners.some((r) => Math.round(r.position * 100) !== 0);
  // What moves the value: the best prices and the bettor's positions, followed at most once a
  // MIN_REQUOTE_MS.
  const book = market.runners
    .map((r) => `${r.position}|${r.back[0]?.price ?? ''}:${r.back[0]?.size ?? ''}|${r.lay[0]?.price ?? ''}:${r.lay[0]?.size ?? ''}`)
    .join(',') + market.status;
  const [bookAsked, setBookAsked] = useState(book);
  const askedAtMs = useRef(0);
  useEffect(() => {
    if (book === bookAsked) return;
    const timer = setTimeout(() => setBookAsked(book), Math.max(0, askedAtMs.current + MIN_REQUOTE_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [book, bookAsked]);
  const quote = useQuery({
    queryKey: cashOutQuoteKey(market.market_id, open ? percent : 100, bookAsked),
    queryFn: () => {
      askedAtMs.current = Date.now();
      return getCashOutQuote(market.market_id, open ? percent : 100);
    },
    enabled: hasPosition,
    refetchInterval: REQUOTE_MS,
    placeholderData: (previous) => previous,
  });
  // Closed, the next cash out starts from the whole position again.
  const close = () => {
    setOpen(false);
    setPercent(100);
  };
  if (!hasPosition) return null;
  const data = quote.data;
  const available = Boolean(data?.available && data.value !== null);
  // Why not, in the app's language from the facts; the server's English where they are unknown.
  const whyNot = data && !available ? (refusalWords({ refusal: data.why_not }) ?? data.reason_if_not) : null;
  return (
    <div className="cash-out" data-testid="cash-out">
      <button
        type="button"
        className="cash-out-btn"
        disabled={!available}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="cash-out-open"
        title={whyNot ?? undefined}
      >
        {available && !open ? t('cashOut.button', { amount: formatMoney(data?.value) }) : t('cashOut.title')}
      </button>
      {whyNot && (
        <span className="cash-out-why" data-testid="cash-out-reason">
          {whyNot}
        </span>
      )}
      {open && <CashOutPanel market={market} quote={available ? data! : null} percent={percent} onPercent={setPercent} onDone={close} />}
    </div>
  );
}

function CashOutPanel({
  market,
  quote,
  percent,
  onPercent,
  onDone,
}: {
  market: MarketBook;
  quote: CashOutQuote | null;
  percent: number;
  onPercent: (percent: number) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('betting');
  const queryClient = useQueryClient();
  const [placing, setPlacing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const confirm = async () => {
    if (!quote || placing) return;
    setPlacing(true);
    setProblem(null);
    try {
      const shown = quote.per_runner.flatMap((r) => (r.bet ? [{ selection_id: r.selection_id, side: r.bet.side, price: r.bet.price }] : []));
      const done = await cashOut({ market_id: market.market_id, percent, shown, client_ref: newClientRef() });
      if (!done.data) return; // the session ended
      toastSuccess(done.message);
      void refreshBalanceNow(queryClient);
      void queryClient.invalidateQueries({ queryKey: matchDetailKey(market.match_id), exact: true });
      void queryClient.invalidateQueries({ queryKey: openBetsKey(market.match_id), exact: true });
      void queryClient.invalidateQueries({ queryKey: ['cashOutQuote', market.market_id] });
      onDone();
    } catch (error) {
      const reason = error instanceof ApiError ? (Object.values(error.fieldErrors)[0] ?? error.message) : errorMessage(error);
      const message = t('cashOut.failed', { reason });
      setProblem(message);
      toastError(message);
    } finally {
      setPlacing(false);
    }
  };

  return (
    <div className="cash-out-panel" role="group" aria-label={t('cashOut.title')} data-testid="cash-out-panel">
      <label className="cash-out-part">
        <span>{t('cashOut.part')}</span>
        <input
          type="range"
          min={1}
          max={100}
          step={1}
          value={percent}
          onChange={(e) => onPercent(Number(e.target.value))}
          aria-valuetext={t('cashOut.percent', { percent })}
          data-testid="cash-out-percent"
        />
        <b>{t('cashOut.percent', { percent })}</b>
      </label>
      {quote ? (
        <>
          <ul className="cash-out-after" data-testid="cash-out-after">
            {quote.per_runner.map((r) => (
              <li key={r.selection_id}>
                <span>{r.name}</span>
                <span className={r.after >= 0 ? 'pnl win' : 'pnl lose'}>{formatMoney(r.after)}</span>
              </li>
            ))}
          </ul>
          <p className="cash-out-note">
            {percent < 100 ? t('cashOut.keepsOpen', { percent: 100 - percent }) : t('cashOut.sameWhateverWins')}
            {quote.bet_delay_seconds > 0 ? ` ${t('cashOut.delay', { seconds: quote.bet_delay_seconds })}` : ''}
          </p>
        </>
      ) : (
        <p className="cash-out-note">{t('cashOut.asking')}</p>
      )}
      {problem && (
        <p className="error" role="alert" data-testid="cash-out-problem">
          {problem}
        </p>
      )}
      <div className="cash-out-actions">
        <button type="button" className="btn-secondary" onClick={onDone}>
          {t('cashOut.cancel')}
        </button>
        <button type="button" className="btn-primary" disabled={!quote || placing} onClick={() => void confirm()} data-testid="cash-out-confirm">
          {placing ? t('cashOut.placing') : t('cashOut.confirm', { amount: formatMoney(quote?.value) })}
        </button>
      </div>
    </div>
  );
}
