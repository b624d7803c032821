// Editing one unmatched bet from Open Bets: its odds, its unmatched stake and whether it is
// kept in play. The server decides what keeps the bet's place in the queue (bet/updateBet,
// crates/api/src/bet_edit.rs); the form says which it will be before the bettor saves.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
import { decimalText, parseStake, toMinor } from '../../lib/money';
import { formatOdds, oddsProblem, parseOddsText } from './ladder';
import type { BetItem, UpdateBetInput } from './api';

/** What an edit of `bet` to these values sends, or why it cannot be sent (null: nothing changed). */
export function editRequest(
  bet: BetItem,
  oddsText: string,
  unmatchedText: string,
  keepInPlay: boolean,
): { input: UpdateBetInput; keepsPlace: boolean } | { problem: string } | null {
  const input: UpdateBetInput = { bet_id: bet.bet_id };
  const odds = parseOddsText(oddsText);
  const problem = oddsProblem(oddsText);
  if (problem || odds === null) return { problem: problem ?? i18n.t('betting:problem.enterOdds') };
  const unmatched = parseStake(unmatchedText);
  if (unmatched === null || unmatched <= 0) return { problem: i18n.t('betting:editor.stakePositive') };
  const priceChanged = odds !== Math.round(bet.price * 100);
  if (priceChanged) input.price = formatOdds(odds);
  const remaining = toMinor(bet.remaining);
  if (unmatched !== remaining) input.stake = decimalText(toMinor(bet.matched) + unmatched);
  const persistence = keepInPlay ? 'persist' : 'lapse';
  if (persistence !== bet.persistence) input.persistence = persistence;
  if (Object.keys(input).length === 1) return null;
  return { input, keepsPlace: !priceChanged && unmatched <= remaining };
}

export function BetEditor({
  bet,
  saving,
  onSave,
  onClose,
}: {
  bet: BetItem;
  saving: boolean;
  onSave: (input: UpdateBetInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('betting');
  const [odds, setOdds] = useState(formatOdds(Math.round(bet.price * 100)));
  const [unmatched, setUnmatched] = useState(decimalText(toMinor(bet.remaining)));
  const [keepInPlay, setKeepInPlay] = useState(bet.persistence === 'persist');
  const request = editRequest(bet, odds, unmatched, keepInPlay);
  const problem = request && 'problem' in request ? request.problem : null;
  const ready = request && 'input' in request ? request : null;

  return (
    <form
      className="bet-editor"
      data-testid="bet-editor"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onSave(ready.input);
      }}
    >
      <label>
        {t('editor.odds')}
        <input value={odds} onChange={(e) => setOdds(e.target.value)} inputMode="decimal" data-testid="edit-odds" />
      </label>
      <label>
        {t('editor.unmatchedStake')}
        <input value={unmatched} onChange={(e) => setUnmatched(e.target.value)} inputMode="decimal" data-testid="edit-stake" />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={keepInPlay} onChange={(e) => setKeepInPlay(e.target.checked)} data-testid="edit-keep" />
        {t('editor.keepInPlay')}
      </label>
      <p className="small muted" data-testid="edit-effect">
        {problem ??
          (ready
            ? ready.keepsPlace
              ? t('editor.keepsPlace')
              : t('editor.newBet')
            : t('editor.change'))}
      </p>
      <div className="bet-editor-actions">
        <button type="submit" className="btn btn-small btn-primary" disabled={!ready || saving} data-testid="edit-save">
          {saving ? t('editor.saving') : t('editor.save')}
        </button>
        <button type="button" className="btn btn-small" onClick={onClose} data-testid="edit-close">
          {t('editor.close')}
        </button>
      </div>
    </form>
  );
}
