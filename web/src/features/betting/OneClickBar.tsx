// One-click betting: a click on a price holds a bet at the bettor's one-click stake for
// ONE_CLICK_UNDO_MS with an Undo, then sends it like the slip would (bet/placeBet with a fresh
// client_ref, the rate changes the bettor accepts). Waiting on the client, not the server, is
// what makes Undo possible on every market: nothing has been sent until the time is up.
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { toastError, toastSuccess } from '../../lib/toast';
import { placeBet, type PlaceBetInput, type PlaceBetResult } from './api';
import { ONE_CLICK_UNDO_MS } from './preferences';
import { placedWords } from './bet-outcome';
import { newClientRef } from './selection';

export interface HeldBet {
  /** What the bar says, e.g. "Back India 2.50 for ₹250.00". */
  label: string;
  body: Omit<PlaceBetInput, 'client_ref'>;
}

/** The bet held for its undo, and how to hold, undo or send one; `onPlaced` runs after an answer. */
export function useOneClick(onPlaced: (result: PlaceBetResult | null) => void) {
  const [held, setHeld] = useState<HeldBet | null>(null);
  const placed = useEffectEvent((result: PlaceBetResult | null) => onPlaced(result));

  useEffect(() => {
    if (!held) return undefined;
    const timer = setTimeout(() => {
      setHeld(null);
      void (async () => {
        try {
          const result = await placeBet({ ...held.body, client_ref: newClientRef() });
          if (result) toastSuccess(placedWords(result));
          placed(result);
        } catch (error) {
          toastError(errorMessage(error));
          placed(null);
        }
      })();
    }, ONE_CLICK_UNDO_MS);
    return () => clearTimeout(timer);
  }, [held]);

  return { held, hold: setHeld, undo: () => setHeld(null) };
}

/** The bar shown while a one-click bet waits: what it is, a countdown and Undo. */
export function OneClickBar({ held, onUndo }: { held: HeldBet; onUndo: () => void }) {
  const { t } = useTranslation('betting');
  const [left, setLeft] = useState(Math.ceil(ONE_CLICK_UNDO_MS / 1000));
  useEffect(() => {
    const started = Date.now();
    const tick = setInterval(() => setLeft(Math.max(0, Math.ceil((ONE_CLICK_UNDO_MS - (Date.now() - started)) / 1000))), 250);
    return () => clearInterval(tick);
  }, [held]);
  return (
    <div className="one-click-bar notice" role="status" data-testid="one-click-bar">
      <span>{t('oneClick.placing', { bet: held.label, seconds: left })}</span>
      <button type="button" className="btn btn-small" onClick={onUndo} data-testid="one-click-undo">
        {t('oneClick.undo')}
      </button>
    </div>
  );
}
