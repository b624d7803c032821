// Recording cash handed over with a direct child (console/collection/settle): no chips move; the
// collection report's "remaining" goes down by what was settled. The server refuses more than
// is owed and says how much may be settled; its message shows next to the field it names.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { ErrorMessage } from '../../components/QueryState';
import { formatMinorMoney } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { toMinor } from '../../lib/money';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { amountText } from '../money-input';
import { reportKeys, settleCash, type CashDirection, type PartnershipRow } from './api';

const settleSchema = z.object({
  direction: z.enum(['received', 'paid']),
  amount: amountText(),
  remark: z.string().trim().max(200, 'Remark must be at most 200 characters.'),
});
type SettleValues = z.infer<typeof settleSchema>;

/** The way cash goes for what remains: the child owes (received) or is owed (paid). */
export function suggestedDirection(remainingMinor: number): CashDirection {
  return remainingMinor < 0 ? 'paid' : 'received';
}

export function SettleCashDialog({ row, onClose }: { row: PartnershipRow; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remainingMinor = toMinor(row.remaining);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<SettleValues>({
    resolver: zodResolver(settleSchema),
    defaultValues: {
      direction: suggestedDirection(remainingMinor),
      amount: remainingMinor === 0 ? '' : (Math.abs(remainingMinor) / 100).toFixed(2),
      remark: '',
    },
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await settleCash(row.user_id, values.direction, values.amount, values.remark);
      if (!answer.status) return;
      toastSuccess(answer.message);
      void queryClient.invalidateQueries({ queryKey: reportKeys.all });
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'remark', 'direction'], setError));
    }
  });
  const owes =
    remainingMinor > 0
      ? `${row.user_name} owes you ${formatMinorMoney(remainingMinor)} for these dates.`
      : remainingMinor < 0
        ? `You owe ${row.user_name} ${formatMinorMoney(-remainingMinor)} for these dates.`
        : `Nothing remains to settle with ${row.user_name} for these dates.`;
  return (
    <Modal title={`Settle cash with ${row.user_name}`} onClose={onClose} size="sm" testId="settle-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="muted small">
          {owes} Record cash handed over outside the site: chips do not move. A mistake is put right by a settlement the other way.
        </p>
        <fieldset className="radio-row">
          <legend>Cash</legend>
          <label>
            <input type="radio" value="received" data-testid="settle-received" {...register('direction')} /> received from {row.user_name}
          </label>
          <label>
            <input type="radio" value="paid" data-testid="settle-paid" {...register('direction')} /> paid to {row.user_name}
          </label>
        </fieldset>
        <Field label="Amount" error={errors.amount?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="settle-amount" {...register('amount')} />
        </Field>
        <Field label="Remark" error={errors.remark?.message}>
          <input autoComplete="off" data-testid="settle-remark" {...register('remark')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="settle-submit">
            Record
          </button>
        </div>
      </form>
    </Modal>
  );
}
