// The downline's dialogs: create an account, move chips, lock or unlock, change an account's
// terms (credit reference, bet-lock, stake cap, exposure limit), reset its password.
// Each checks what it can before sending and shows the server's refusal next to the field it
// names (a 400's data.errors), or above the buttons when it names none.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { BALANCE_QUERY_KEY } from '../../api/balance';
import { ApiError, errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { ErrorMessage } from '../../components/QueryState';
import { formatMoney } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { parseStake, toMinor } from '../../lib/money';
import { passwordSchema } from '../../lib/password';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { amountText } from '../money-input';
import { AccountFigures } from './AccountFigures';
import {
  createAccount,
  DOWNLINE_QUERY_KEY,
  resetPassword,
  setLocked,
  setTerms,
  transfer,
  type DownlineRow,
  type TermsChange,
  type TransferDirection,
} from './api';

/** After a change: the lists and the chips shown anywhere are stale. */
function useRefreshAccounts() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: DOWNLINE_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: BALANCE_QUERY_KEY });
  };
}

const optionalAmount = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^(\d{1,10}(\.\d{1,2})?)?$/, `${label} must be a number with at most 2 decimals, or empty.`);

const createSchema = z
  .object({
    user_name: z.string().trim().min(1, 'User name is required.').max(20, 'User name must be at most 20 characters.'),
    password: passwordSchema('A first password is required.'),
    role: z.enum(['agent', 'client']),
    partnership: z.string().trim().regex(/^(\d{1,3}(\.\d{1,2})?)?$/, 'Partnership is a percentage such as 40 or 12.5.'),
    credit_reference: optionalAmount('Credit reference'),
    max_stake: optionalAmount('Max stake'),
    // No input: the server's refusal of the parent (an agent under an agent) shows where it is named.
    parent_id: z.string().optional(),
  })
  .refine((v) => v.role !== 'agent' || (v.partnership !== '' && Number(v.partnership) <= 100), {
    path: ['partnership'],
    message: "An agent's partnership is 0 to 100%, at most its parent's.",
  });
type CreateValues = z.infer<typeof createSchema>;
const CREATE_FIELDS = ['user_name', 'password', 'role', 'partnership', 'credit_reference', 'max_stake', 'parent_id'] as const;

/**
 * A new account under `parent` (null: under the caller), which must change its password at
 * first log-in. An agent's partnership is fixed here; how deep agents may go is the server's.
 */
export function CreateAccountDialog({ parent, onClose }: { parent: { id: number; name: string } | null; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<CreateValues>({
    resolver: zodResolver(createSchema),
    defaultValues: { user_name: '', password: '', role: 'client', partnership: '', credit_reference: '', max_stake: '' },
  });
  const role = useWatch({ control, name: 'role' });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await createAccount({
        user_name: values.user_name.trim(),
        password: values.password,
        role: values.role,
        ...(parent ? { parent_id: parent.id } : {}),
        ...(values.role === 'agent' ? { partnership: values.partnership } : {}),
        terms: {
          ...(values.credit_reference ? { credit_reference: values.credit_reference } : {}),
          ...(values.max_stake ? { max_stake: values.max_stake } : {}),
        },
      });
      if (!answer.status) return;
      toastSuccess(answer.message);
      refresh();
      onClose();
    } catch (error) {
      // 409 is the one refusal of a name that is fine on its own: it is taken.
      if (error instanceof ApiError && error.httpStatus === 409) setError('user_name', { type: 'server', message: error.message });
      else setFormError(applyServerErrors(error, CREATE_FIELDS, setError));
    }
  });
  return (
    <Modal title="Create account" onClose={onClose} testId="create-account-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="muted small" data-testid="create-account-parent">
          Under <b>{parent?.name ?? 'you'}</b>. The account chooses its own password at first log-in.
        </p>
        {errors.parent_id?.message && (
          <p className="field-error" role="alert" data-testid="create-parent-error">
            {errors.parent_id.message}
          </p>
        )}
        <Field label="User name" error={errors.user_name?.message}>
          <input autoComplete="off" data-testid="create-user-name" {...register('user_name')} />
        </Field>
        <Field label="First password" error={errors.password?.message}>
          <input type="text" autoComplete="new-password" data-testid="create-password" {...register('password')} />
        </Field>
        <Field label="Role" error={errors.role?.message}>
          <select data-testid="create-role" {...register('role')}>
            <option value="client">Client</option>
            <option value="agent">Agent</option>
          </select>
        </Field>
        {role === 'agent' && (
          <Field label="Partnership (%)" error={errors.partnership?.message}>
            <input inputMode="decimal" autoComplete="off" placeholder="40" data-testid="create-partnership" {...register('partnership')} />
          </Field>
        )}
        <Field label="Credit reference (optional)" error={errors.credit_reference?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="create-credit-reference" {...register('credit_reference')} />
        </Field>
        <Field label="Max stake of one bet (optional)" error={errors.max_stake?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="create-max-stake" {...register('max_stake')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="create-submit">
            {isSubmitting ? 'Creating…' : 'Create account'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

const transferSchema = z.object({
  amount: amountText(),
  remark: z.string().trim().max(200, 'Remark must be at most 200 characters.'),
});
type TransferValues = z.infer<typeof transferSchema>;

/**
 * Chips from the account's parent to `user` (deposit) or back (withdraw), through the ledger.
 * `parentName`: the parent, when it is not the caller.
 */
export function TransferDialog({
  user,
  direction,
  parentName,
  onClose,
}: {
  user: DownlineRow;
  direction: TransferDirection;
  parentName: string | null;
  onClose: () => void;
}) {
  const refresh = useRefreshAccounts();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<TransferValues>({
    resolver: zodResolver(transferSchema),
    defaultValues: { amount: '', remark: '' },
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await transfer(user.user_id, direction, values.amount, values.remark);
      if (!answer.status) return;
      toastSuccess(`${answer.message} ${user.user_name} now has ${formatMoney(answer.data.user_balance)}.`);
      refresh();
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'remark'], setError));
    }
  });
  const deposit = direction === 'deposit';
  return (
    <Modal title={`${deposit ? 'Deposit to' : 'Withdraw from'} ${user.user_name}`} onClose={onClose} size="sm" testId="transfer-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="muted small">
          {deposit
            ? `Chips go from ${parentName ? `${parentName}'s` : 'your'} balance to theirs.`
            : `Chips go back from their balance to ${parentName ? `${parentName}'s` : 'yours'}.`}{' '}
          Their balance:{' '}
          <b>{formatMoney(user.balance)}</b>, available <b>{formatMoney(user.available)}</b>.
        </p>
        <Field label="Amount" error={errors.amount?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="transfer-amount" {...register('amount')} />
        </Field>
        <Field label="Remark" error={errors.remark?.message}>
          <input autoComplete="off" data-testid="transfer-remark" {...register('remark')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="transfer-submit">
            {deposit ? 'Deposit' : 'Withdraw'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Locking ends the account's sessions and refuses its log-ins; unlocking lets it in again. */
export function LockDialog({ user, onClose }: { user: DownlineRow; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lock = user.status !== 'locked';
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await setLocked(user.user_id, lock);
      if (!answer.status) return;
      toastSuccess(answer.message);
      refresh();
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`${lock ? 'Lock' : 'Unlock'} ${user.user_name}`} onClose={onClose} size="sm" testId="lock-dialog">
      <p>
        {lock
          ? `${user.user_name} is logged out at once and cannot log in until unlocked. Open bets stay as they are.`
          : `${user.user_name} can log in again.`}
      </p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={onClose}>Cancel</button>
        <button type="button" className={`btn ${lock ? 'btn-danger' : 'btn-primary'}`} disabled={busy} onClick={() => void confirm()} data-testid="lock-confirm">
          {lock ? 'Lock' : 'Unlock'}
        </button>
      </div>
    </Modal>
  );
}

const termsSchema = z.object({
  credit_reference: z
    .string()
    .trim()
    .min(1, 'Credit reference is required (0 for none).')
    .regex(/^\d{1,10}(\.\d{1,2})?$/, 'Credit reference must be a number with at most 2 decimals.'),
  bet_locked: z.boolean(),
  max_stake: optionalAmount('Max stake').refine((text) => text === '' || /[1-9]/.test(text), 'Max stake must be more than 0, or empty for no cap.'),
  max_exposure: optionalAmount('Exposure limit'),
});
type TermsValues = z.infer<typeof termsSchema>;
const TERMS_FIELDS = ['credit_reference', 'bet_locked', 'max_stake', 'max_exposure'] as const;

/** The form's text for an amount the server sent (null: empty). */
function amountField(amount: number | null): string {
  return amount === null ? '' : (toMinor(amount) / 100).toFixed(2);
}

/** What the form changes from `user`'s terms: only those are sent (the audit shows just them). */
function termsChange(user: DownlineRow, values: TermsValues): TermsChange {
  const change: TermsChange = {};
  const typed = (text: string) => text.trim();
  if (parseStake(typed(values.credit_reference)) !== toMinor(user.credit_reference)) change.credit_reference = typed(values.credit_reference);
  if (values.bet_locked !== (user.status === 'bet_locked')) change.bet_locked = values.bet_locked ? 1 : 0;
  const stake = typed(values.max_stake);
  if (parseStake(stake) !== (user.max_stake === null ? null : toMinor(user.max_stake))) change.max_stake = stake === '' ? null : stake;
  const exposure = typed(values.max_exposure);
  if (parseStake(exposure) !== (user.max_exposure === null ? null : toMinor(user.max_exposure))) change.max_exposure = exposure === '' ? null : exposure;
  return change;
}

/**
 * The terms a parent sets on an account: credit reference (a number the parent keeps, not
 * chips), bet-lock (can log in, cannot bet), the largest stake of one bet, the most exposure.
 */
export function TermsDialog({ user, onClose }: { user: DownlineRow; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<TermsValues>({
    resolver: zodResolver(termsSchema),
    defaultValues: {
      credit_reference: amountField(user.credit_reference),
      bet_locked: user.status === 'bet_locked',
      max_stake: amountField(user.max_stake),
      max_exposure: amountField(user.max_exposure),
    },
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    const change = termsChange(user, values);
    if (Object.keys(change).length === 0) {
      onClose();
      return;
    }
    try {
      const answer = await setTerms(user.user_id, change);
      if (!answer.status) return;
      toastSuccess(answer.message);
      refresh();
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, TERMS_FIELDS, setError));
    }
  });
  return (
    <Modal title={`Terms of ${user.user_name}`} onClose={onClose} size="sm" testId="terms-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <AccountFigures user={user} />
        <p className="muted small">Leave max stake or exposure limit empty for none.</p>
        <Field label="Credit reference" error={errors.credit_reference?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="terms-credit-reference" {...register('credit_reference')} />
        </Field>
        <Field label="Max stake of one bet" error={errors.max_stake?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="terms-max-stake" {...register('max_stake')} />
        </Field>
        <Field label="Exposure limit" error={errors.max_exposure?.message}>
          <input inputMode="decimal" autoComplete="off" data-testid="terms-max-exposure" {...register('max_exposure')} />
        </Field>
        <label className="menu-toggle-row">
          <input type="checkbox" data-testid="terms-bet-locked" {...register('bet_locked')} /> Bet-locked: can log in, cannot bet
        </label>
        {errors.bet_locked?.message && <p className="field-error" role="alert">{errors.bet_locked.message}</p>}
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="terms-submit">
            Save terms
          </button>
        </div>
      </form>
    </Modal>
  );
}

const resetSchema = z.object({ password: passwordSchema('A new password is required.') });
type ResetValues = z.infer<typeof resetSchema>;

/** A password the account must change at its next log-in; its sessions end at once. */
export function ResetPasswordDialog({ user, onClose }: { user: DownlineRow; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<ResetValues>({
    resolver: zodResolver(resetSchema),
    defaultValues: { password: '' },
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await resetPassword(user.user_id, values.password);
      if (!answer.status) return;
      toastSuccess(answer.message);
      refresh();
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, ['password'], setError));
    }
  });
  return (
    <Modal title={`Reset the password of ${user.user_name}`} onClose={onClose} size="sm" testId="reset-password-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="muted small">{user.user_name} is logged out and must choose a new password at the next log-in.</p>
        <Field label="New password" error={errors.password?.message}>
          <input type="text" autoComplete="new-password" data-testid="reset-password" {...register('password')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="reset-password-submit">
            Reset password
          </button>
        </div>
      </form>
    </Modal>
  );
}
