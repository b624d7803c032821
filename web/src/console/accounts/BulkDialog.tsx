// One action on the selected accounts: the confirmation lists what will happen to each, and
// after the server's answer what did (a refusal on one account leaves the others done).
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { BALANCE_QUERY_KEY } from '../../api/balance';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { ErrorMessage } from '../../components/QueryState';
import { formatMinorMoney, formatMoney } from '../../lib/format';
import { parseStake, toMinor } from '../../lib/money';
import { applyServerErrors } from '../../lib/forms';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { amountText } from '../money-input';
import { bulkAction, DOWNLINE_QUERY_KEY, type BulkAction, type BulkOutcome, type DownlineRow } from './api';

export const BULK_LABEL: Record<BulkAction, string> = {
  lock: 'Lock',
  unlock: 'Unlock',
  bet_lock: 'Bet-lock',
  bet_unlock: 'Allow betting',
  give_chips: 'Give chips',
};

/** What the action will do to one account, in words. */
function planFor(action: BulkAction, row: DownlineRow, amountMinor: number | null): string {
  switch (action) {
    case 'lock':
      return row.status === 'locked' ? 'already locked: stays locked' : 'logged out at once; cannot log in until unlocked';
    case 'unlock':
      return row.status === 'locked' ? 'can log in again' : 'not locked: nothing changes';
    case 'bet_lock':
      return row.status === 'bet_locked' ? 'already bet-locked' : 'can still log in, cannot bet';
    case 'bet_unlock':
      return row.status === 'bet_locked' ? 'may bet again' : 'not bet-locked: nothing changes';
    case 'give_chips':
      return amountMinor === null
        ? 'gets the amount from its parent'
        : `gets ${formatMinorMoney(amountMinor)} from its parent (balance ${formatMoney(row.balance)} → ${formatMinorMoney(toMinor(row.balance) + amountMinor)})`;
  }
}

const chipsSchema = z.object({
  amount: amountText(),
  remark: z.string().trim().max(200, 'Remark must be at most 200 characters.'),
});
type ChipsValues = z.infer<typeof chipsSchema>;
/** Locks take no input. */
const NO_FIELDS = z.object({ amount: z.string(), remark: z.string() });

export function BulkDialog({
  action,
  rows,
  onClose,
  onDone,
}: {
  action: BulkAction;
  rows: DownlineRow[];
  onClose: () => void;
  /** After the server answered (some may have failed): the selection is spent. */
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  // The accounts as confirmed: the selection is cleared once the server has answered, and
  // the answer is still read against the names it was asked for.
  const [asked, setAsked] = useState<DownlineRow[] | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const chips = action === 'give_chips';
  const { register, control, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<ChipsValues>({
    resolver: zodResolver(chips ? chipsSchema : NO_FIELDS),
    defaultValues: { amount: '', remark: '' },
  });
  const amount = useWatch({ control, name: 'amount' });
  const amountMinor = chips ? parseStake(amount.trim()) : null;
  const shown = asked ?? rows;
  const names = new Map(shown.map((row) => [row.user_id, row.user_name]));

  const confirm = handleSubmit(async (values) => {
    setFormError(null);
    setAsked(rows);
    try {
      const answer = await bulkAction({
        action,
        userIds: rows.map((row) => row.user_id),
        ...(chips ? { amount: values.amount.trim(), remark: values.remark.trim() } : {}),
      });
      if (!answer.status) return;
      setOutcome(answer.data);
      if (answer.data.failed === 0) toastSuccess(answer.message);
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'remark'], setError));
    } finally {
      // Whatever was done is done: every list and balance is read again.
      void queryClient.invalidateQueries({ queryKey: DOWNLINE_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: BALANCE_QUERY_KEY });
    }
  });

  const title = `${BULK_LABEL[action]}: ${shown.length} account${shown.length === 1 ? '' : 's'}`;
  if (outcome) {
    return (
      <Modal title={title} onClose={onClose} testId="bulk-dialog">
        <p data-testid="bulk-summary">
          {outcome.failed === 0 ? `Done for all ${outcome.done}.` : `${outcome.done} done, ${outcome.failed} not done:`}
        </p>
        <ul className="bulk-plan" data-testid="bulk-results">
          {outcome.results.map((result) => (
            <li key={result.user_id} className={result.ok ? 'done' : 'failed'} data-testid="bulk-result" data-ok={result.ok}>
              <b>{names.get(result.user_id) ?? `#${result.user_id}`}</b>: {result.ok ? '' : 'not done: '}
              {result.message}
            </li>
          ))}
        </ul>
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={onClose} data-testid="bulk-close">Close</button>
        </div>
      </Modal>
    );
  }
  const totalMinor = amountMinor === null ? null : amountMinor * rows.length;
  return (
    <Modal title={title} onClose={onClose} testId="bulk-dialog">
      <form className="stack-form" onSubmit={(event) => void confirm(event)} noValidate>
        {chips && (
          <>
            <Field label="Amount to each" error={errors.amount?.message}>
              <input inputMode="decimal" autoComplete="off" data-testid="bulk-amount" {...register('amount')} />
            </Field>
            <Field label="Remark" error={errors.remark?.message}>
              <input autoComplete="off" data-testid="bulk-remark" {...register('remark')} />
            </Field>
          </>
        )}
        <p className="muted small">Each account on its own, in this order: one refused leaves the others done.</p>
        <ol className="bulk-plan" data-testid="bulk-plan">
          {rows.map((row) => (
            <li key={row.user_id} data-testid="bulk-plan-row">
              <b>{row.user_name}</b>: {planFor(action, row, amountMinor)}
            </li>
          ))}
        </ol>
        {chips && totalMinor !== null && (
          <p data-testid="bulk-total">
            In all: <b>{formatMinorMoney(totalMinor)}</b> to {rows.length} account{rows.length === 1 ? '' : 's'}.
          </p>
        )}
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className={`btn ${action === 'lock' || action === 'bet_lock' ? 'btn-danger' : 'btn-primary'}`} disabled={isSubmitting} data-testid="bulk-confirm">
            {BULK_LABEL[action]} {rows.length}
          </button>
        </div>
      </form>
    </Modal>
  );
}
