// The bettor's own limits: what is in force, a higher limit or a removal waiting out its 24 hours
// (then confirmed or dropped), and a form to set or remove one. A new or lower limit applies at
// once; the server decides which, and its message says so.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { limitLeftWords } from '../../components/LimitLeft';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { i18n } from '../../i18n';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { z } from '../../lib/zod';
import { confirmLimit, getLimits, LIMITS_KEY, setLimit, type LimitsAnswer, type PendingLimit } from './api';
import { isSlot, LIMIT_SLOTS, limitName, limitValueText, slotById, type LimitSlot } from './words';

/** The contract's bounds: money up to ₹1,00,00,000 with 2 decimals; a session 5 to 1440 minutes. */
const MAX_LIMIT_RUPEES = 1_00_00_000;
const SESSION_MINUTES = { min: 5, max: 1440 } as const;

/** What is wrong with a limit's value as typed for `slot`, or null. The server checks it again. */
export function limitValueProblem(slot: LimitSlot, text: string): string | null {
  const value = text.trim();
  if (value === '') return i18n.t('safety:limits.valueRequired');
  if (slot.kind === 'session') {
    if (!/^\d+$/.test(value)) return i18n.t('safety:limits.minutesNumber');
    const minutes = Number(value);
    return minutes < SESSION_MINUTES.min || minutes > SESSION_MINUTES.max ? i18n.t('safety:limits.minutesRange', SESSION_MINUTES) : null;
  }
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return i18n.t('safety:limits.amountNumber');
  const rupees = Number(value);
  if (rupees <= 0) return i18n.t('safety:limits.amountPositive');
  return rupees > MAX_LIMIT_RUPEES ? i18n.t('safety:limits.amountMax', { max: formatMoney(MAX_LIMIT_RUPEES) }) : null;
}

const formSchema = z
  .object({ slot: z.enum(LIMIT_SLOTS.map((s) => s.id) as [LimitSlot['id'], ...LimitSlot['id'][]]), value: z.string() })
  .superRefine((form, ctx) => {
    const problem = limitValueProblem(slotById(form.slot), form.value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });
type FormValues = z.infer<typeof formSchema>;

/** The server's answer to a change, in words: its own message (which says when a change applies). */
type Said = { ok: boolean; text: string } | null;

/** `{kind, period}` as the calls take a limit: no period for a stake or session limit. */
function limitOf(slot: LimitSlot) {
  return slot.period === null ? { kind: slot.kind } : { kind: slot.kind, period: slot.period };
}

export function LimitsSection() {
  const { t } = useTranslation('safety');
  const queryClient = useQueryClient();
  const limits = useQuery({ queryKey: LIMITS_KEY, queryFn: getLimits, staleTime: 0 });
  const [said, setSaid] = useState<Said>(null);
  const [deciding, setDeciding] = useState<string | null>(null);

  /** Every change answers the limits as they are now. */
  const settle = (answer: LimitsAnswer, message: string) => {
    queryClient.setQueryData(LIMITS_KEY, answer);
    setSaid({ ok: true, text: message });
  };

  async function decide(slot: LimitSlot, accept: boolean) {
    setSaid(null);
    setDeciding(slot.id);
    try {
      const answer = await confirmLimit({ ...limitOf(slot), accept });
      if (answer.status) settle(answer.data, answer.message || (accept ? t('limits.confirmed') : t('limits.dropped')));
    } catch (error) {
      setSaid({ ok: false, text: errorMessage(error) });
      // Nothing waits any more (404): show the limits as they are.
      if (error instanceof ApiError && error.httpStatus === 404) void queryClient.invalidateQueries({ queryKey: LIMITS_KEY });
    } finally {
      setDeciding(null);
    }
  }

  const data = limits.data;
  return (
    <section className="safety-section" aria-labelledby="safety-limits" data-testid="limits-section">
      <h2 id="safety-limits">{t('limits.title')}</h2>
      <p className="muted small">{t('limits.intro')}</p>
      <QueryState isPending={limits.isPending} error={limits.error}>
        {data && (
          <>
            {data.left.map((left) => (
              <p key={left.kind} className={`limit-left${left.value > 0 ? '' : ' reached'}`} data-testid={`limit-left-${left.kind}`}>
                {limitLeftWords(left)}
              </p>
            ))}
            {data.operator_max_stake !== null && (
              <p className="muted small" data-testid="operator-max-stake">
                {t('limits.operatorMaxStake', { amount: formatMoney(data.operator_max_stake) })}
              </p>
            )}
            <LimitsTable data={data} deciding={deciding} onDecide={(slot, accept) => void decide(slot, accept)} />
            {said &&
              (said.ok ? (
                <p className="notice success" role="status" data-testid="limits-message">
                  {said.text}
                </p>
              ) : (
                <ErrorMessage>{said.text}</ErrorMessage>
              ))}
            <LimitForm data={data} onSaid={setSaid} onSet={settle} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function LimitsTable({ data, deciding, onDecide }: { data: LimitsAnswer; deciding: string | null; onDecide: (slot: LimitSlot, accept: boolean) => void }) {
  const { t } = useTranslation('safety');
  return (
    <div className="table-wrap">
      <table className="data-table stack-on-phone limits-table" data-testid="limits-table">
        <thead>
          <tr>
            <th>{t('limits.limit')}</th>
            <th>{t('limits.inForce')}</th>
            <th>{t('limits.waiting')}</th>
          </tr>
        </thead>
        <tbody>
          {LIMIT_SLOTS.map((slot) => {
            const inForce = data.limits.find((l) => isSlot(slot, l));
            const pending = data.pending.find((p) => isSlot(slot, p));
            return (
              <tr key={slot.id} data-testid={`limit-row-${slot.id}`}>
                <td data-label={t('limits.limit')}>
                  <b>{limitName(slot)}</b>
                </td>
                <td data-label={t('limits.inForce')} data-testid="limit-in-force">
                  {inForce ? limitValueText(slot.kind, inForce.value) : <span className="muted">{t('limits.none')}</span>}
                </td>
                <td data-label={t('limits.waiting')} data-testid="limit-waiting">
                  {pending ? (
                    <PendingChange slot={slot} pending={pending} busy={deciding === slot.id} onDecide={(accept) => onDecide(slot, accept)} />
                  ) : (
                    <span className="muted">-</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A waiting change: what it will be and from when; Confirm once it may be, Cancel any time. */
function PendingChange({ slot, pending, busy, onDecide }: { slot: LimitSlot; pending: PendingLimit; busy: boolean; onDecide: (accept: boolean) => void }) {
  const { t } = useTranslation('safety');
  const at = formatIstDateTime(pending.effective_at);
  return (
    <div className="pending-limit">
      <span data-testid="pending-text">
        {pending.value === null ? t('limits.pendingRemoval', { at }) : t('limits.pendingValue', { value: limitValueText(slot.kind, pending.value), at })}
      </span>
      <span className="muted small">{pending.confirmable ? t('limits.confirmNow') : t('limits.confirmLater')}</span>
      <span className="pending-actions">
        {pending.confirmable && (
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => onDecide(true)} data-testid="limit-confirm">
            {t('limits.confirm')}
          </button>
        )}
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => onDecide(false)} data-testid="limit-cancel">
          {t('limits.cancelChange')}
        </button>
      </span>
    </div>
  );
}

/** Sets one limit, or removes it (`value` null); a field the server names carries its message. */
function LimitForm({ data, onSet, onSaid }: { data: LimitsAnswer; onSet: (answer: LimitsAnswer, message: string) => void; onSaid: (said: Said) => void }) {
  const { t } = useTranslation('safety');
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: { slot: 'loss_day', value: '' } });
  const [removing, setRemoving] = useState(false);
  const slot = slotById(useWatch({ control, name: 'slot' }));
  const hasLimit = data.limits.some((l) => isSlot(slot, l));

  async function send(value: number | null) {
    onSaid(null);
    try {
      const answer = await setLimit({ ...limitOf(slot), value });
      if (!answer.status) return;
      onSet(answer.data, answer.message || t('limits.saved'));
      reset({ slot: slot.id, value: '' });
    } catch (error) {
      // The server names the field: `value`, or `kind`/`period` (the limit chosen).
      const rest = applyServerErrors(error, ['slot', 'value'], setError, (field) => (field === 'kind' || field === 'period' ? 'slot' : field));
      if (rest) onSaid({ ok: false, text: rest });
    }
  }

  const submit = handleSubmit(({ value }) => send(Number(value.trim())));
  const remove = async () => {
    clearErrors();
    setRemoving(true);
    try {
      await send(null);
    } finally {
      setRemoving(false);
    }
  };

  return (
    <form className="stack-form limit-form" onSubmit={(event) => void submit(event)} noValidate data-testid="limit-form">
      <h3>{t('limits.change')}</h3>
      <Field label={t('limits.limit')} error={errors.slot?.message}>
        <select data-testid="limit-slot" {...register('slot', { onChange: () => clearErrors() })}>
          {LIMIT_SLOTS.map((s) => (
            <option key={s.id} value={s.id}>
              {limitName(s)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={slot.kind === 'session' ? t('limits.minutes') : t('limits.amount')} error={errors.value?.message}>
        <input inputMode={slot.kind === 'session' ? 'numeric' : 'decimal'} data-testid="limit-value" {...register('value')} />
      </Field>
      <p className="muted small">{t('limits.rules')}</p>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || removing} data-testid="limit-set">
          {t('limits.set')}
        </button>
        <button type="button" className="btn" disabled={!hasLimit || isSubmitting || removing} onClick={() => void remove()} data-testid="limit-remove">
          {t('limits.remove')}
        </button>
      </div>
    </form>
  );
}
