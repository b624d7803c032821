// A time-out (24 hours to 30 days) or a self-exclusion (6 months to 5 years): a period, the
// password, then a plain statement of what happens before anything is sent. Once taken the
// server has already ended every session of the bettor, this one too, so the app clears its
// own and the login page says until when.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { ErrorMessage } from '../../components/QueryState';
import { i18n } from '../../i18n';
import { formatIstDateTime } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { message } from '../../lib/password';
import { clearSession } from '../../lib/session';
import { z } from '../../lib/zod';
import { SELF_EXCLUSION_PERIODS, selfExclude, takeTimeOut, TIME_OUT_PERIODS, type BreakTaken, type SelfExclusionPeriod, type TimeOutPeriod } from './api';

export type BreakKind = 'timeOut' | 'selfExclusion';
type BreakPeriod = TimeOutPeriod | SelfExclusionPeriod;

const PERIODS: Record<BreakKind, readonly BreakPeriod[]> = { timeOut: TIME_OUT_PERIODS, selfExclusion: SELF_EXCLUSION_PERIODS };

const formSchema = z.object({
  period: z.string(),
  password: z.string().min(1, message(() => i18n.t('auth:login.passwordRequired'))),
});
type FormValues = z.infer<typeof formSchema>;

/** "7 days", "1 year". */
function periodWords(period: BreakPeriod): string {
  return i18n.t(`safety:break.period.${period}`);
}

function take(kind: BreakKind, period: BreakPeriod, password: string) {
  return kind === 'timeOut'
    ? takeTimeOut({ period: period as TimeOutPeriod, password })
    : selfExclude({ period: period as SelfExclusionPeriod, password });
}

/** What the login page says once the break has begun: until when, and the bets it cancelled. */
export function breakFarewell(kind: BreakKind, taken: BreakTaken): string {
  const until = formatIstDateTime(taken.until);
  const started = i18n.t(`safety:break.${kind}.started`, { until });
  return taken.cancelled_bets > 0 ? `${started} ${i18n.t('safety:break.cancelledBets', { count: taken.cancelled_bets })}` : started;
}

export function BreakForm({ kind }: { kind: BreakKind }) {
  const { t } = useTranslation('safety');
  const periods = PERIODS[kind];
  const [asking, setAsking] = useState<FormValues | null>(null);
  const [sending, setSending] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: { period: periods[0], password: '' } });

  const ask = handleSubmit((values) => {
    setFormError(null);
    setAsking(values);
  });

  async function confirm(values: FormValues) {
    setSending(true);
    try {
      const answer = await take(kind, values.period as BreakPeriod, values.password);
      // The session had ended already (the call was refused as such): the login page is on its way.
      if (!answer.status) return;
      // Every session of the bettor ended on the server, this one too: end it here as well.
      clearSession(breakFarewell(kind, answer.data));
    } catch (error) {
      setAsking(null);
      setFormError(applyServerErrors(error, ['period', 'password'], setError));
    } finally {
      setSending(false);
    }
  }

  const period = asking ? periodWords(asking.period as BreakPeriod) : '';
  return (
    <section className="safety-section" aria-labelledby={`safety-${kind}`} data-testid={`break-${kind}`}>
      <h2 id={`safety-${kind}`}>{t(`break.${kind}.title`)}</h2>
      <p className="muted small">{t(`break.${kind}.intro`)}</p>
      <form className="stack-form" onSubmit={(event) => void ask(event)} noValidate data-testid={`break-${kind}-form`}>
        <Field label={t('break.periodLabel')} error={errors.period?.message}>
          <select data-testid={`break-${kind}-period`} {...register('period')}>
            {periods.map((p) => (
              <option key={p} value={p}>
                {periodWords(p)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('break.password')} error={errors.password?.message}>
          <input type="password" autoComplete="current-password" data-testid={`break-${kind}-password`} {...register('password')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <button type="submit" className="btn btn-primary" data-testid={`break-${kind}-continue`}>
          {t('break.continue')}
        </button>
      </form>
      {asking && (
        <Modal title={t(`break.${kind}.confirmTitle`, { period })} onClose={() => !sending && setAsking(null)} size="sm" testId="break-confirm">
          <p>{t('break.whatHappens')}</p>
          <ul className="break-consequences">
            <li>{t('break.loggedOut')}</li>
            <li>{t('break.betsCancelled')}</li>
            <li>{t(`break.${kind}.noLogIn`, { period })}</li>
            <li>
              <b>{t('break.noUndo')}</b>
            </li>
            {kind === 'selfExclusion' && <li>{t('break.selfExclusion.noNewAccount')}</li>}
          </ul>
          <div className="modal-actions wrap">
            <button type="button" className="btn" disabled={sending} onClick={() => setAsking(null)} data-testid="break-back">
              {t('break.back')}
            </button>
            <button type="button" className="btn btn-danger" disabled={sending} onClick={() => void confirm(asking)} data-testid="break-confirm-button">
              {t(`break.${kind}.confirm`)}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
