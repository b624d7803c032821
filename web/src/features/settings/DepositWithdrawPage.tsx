import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation, Trans } from 'react-i18next';
import { i18n } from '../../i18n';
import { Link } from 'react-router';
import { z } from '../../lib/zod';
import { LIMITS_KEY } from '../../api/limits';
import { Field } from '../../components/Field';
import { LimitLeftLine } from '../../components/LimitLeft';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { paymentGatewayOn, useGlobalSetting } from '../../hooks/useGlobalSetting';
import { applyServerErrors } from '../../lib/forms';
import { message } from '../../lib/password';
import { hasParent, useSession } from '../../lib/session';
import { toastSuccess } from '../../lib/toast';
import { getPaymentDetails, getSavedBankAccount, requestDeposit, requestWithdraw, type PaymentDetails } from './api';

/**
 * What is wrong with an amount as typed, the most telling thing first; null when nothing is. A
 * sign before the digits is what is wrong with "-500", not its format, so it is said first in
 * the server's own words (payment.rs: "Amount must be more than 0.").
 */
export function amountProblem(text: string): string | null {
  if (text === '') return i18n.t('settings:dw.amountRequired');
  if (/^-\s*\d/.test(text) || (/^\d+(\.\d+)?$/.test(text) && Number(text) === 0)) return i18n.t('settings:dw.amountPositive');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return i18n.t('settings:dw.amountNumber');
  if (Number(text) < 100) return i18n.t('settings:dw.amountMin', { min: 100 });
  return null;
}

const amount = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const problem = amountProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const depositSchema = z.object({
  amount,
  reference: z
    .string()
    .trim()
    .min(4, message(() => i18n.t('settings:dw.referenceRequired')))
    .max(64, message(() => i18n.t('settings:dw.referenceLong'))),
});
const withdrawSchema = z.object({
  amount,
  account_holder: z.string().trim().min(2, message(() => i18n.t('settings:dw.holderRequired'))).max(64),
  bank_name: z.string().trim().min(2, message(() => i18n.t('settings:dw.bankRequired'))).max(64),
  account_number: z.string().trim().regex(/^\d{6,20}$/, message(() => i18n.t('settings:dw.accountNumberDigits'))),
  ifsc: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, message(() => i18n.t('settings:dw.ifscInvalid'))),
});

/** /setting/d-w: a deposit or withdraw request, shown only with the payment gateway on and a parent. */
export function DepositWithdrawPage() {
  const { t } = useTranslation('settings');
  const user = useSession();
  const { data: setting } = useGlobalSetting();
  const [tab, setTab] = useState<'deposit' | 'withdraw'>('deposit');
  const allowed = paymentGatewayOn(setting) && hasParent(user);
  return (
    <PageCard title={t('dw.title')} testId="deposit-withdraw-page">
      {!allowed ? (
        <p className="empty-state">{t('dw.unavailable')}</p>
      ) : (
        <>
          <div className="tabs" role="tablist">
            <button type="button" role="tab" aria-selected={tab === 'deposit'} className={tab === 'deposit' ? 'active' : undefined} onClick={() => setTab('deposit')}>
              {t('dw.deposit')}
            </button>
            <button type="button" role="tab" aria-selected={tab === 'withdraw'} className={tab === 'withdraw' ? 'active' : undefined} onClick={() => setTab('withdraw')} data-testid="withdraw-tab">
              {t('dw.withdraw')}
            </button>
          </div>
          {tab === 'deposit' ? <DepositForm /> : <WithdrawForm />}
          <p className="muted small">
            <Trans t={t} i18nKey="dw.approval" components={{ statement: <Link to="/report/payment-withdraw" /> }} />
          </p>
        </>
      )}
    </PageCard>
  );
}

/** Where to pay: the payee's UPI id with a QR code of its upi:// link, and/or its bank account. */
function PayTo() {
  const { t } = useTranslation('settings');
  const details = useQuery({ queryKey: ['paymentDetails'], queryFn: getPaymentDetails });
  return (
    <section className="pay-to" aria-label={t('dw.whereToPay')} data-testid="pay-to">
      <QueryState isPending={details.isPending} error={details.error} isEmpty={!details.data} empty={t('dw.noPayee')}>
        {details.data && <PayeeDetails details={details.data} />}
      </QueryState>
    </section>
  );
}

function PayeeDetails({ details }: { details: PaymentDetails }) {
  const { t } = useTranslation('settings');
  return (
    <>
      {details.upi_id && details.upi_uri && (
        <div className="pay-upi">
          <div className="qr-box" data-testid="deposit-qr" aria-label={t('dw.qr', { upi: details.upi_id })}>
            <QRCodeSVG value={details.upi_uri} size={160} marginSize={2} />
          </div>
          <dl className="pay-lines">
            <dt>{t('dw.upiId')}</dt>
            <dd data-testid="deposit-upi-id">{details.upi_id}</dd>
            {details.upi_name && (
              <>
                <dt>{t('dw.name')}</dt>
                <dd>{details.upi_name}</dd>
              </>
            )}
          </dl>
        </div>
      )}
      {details.bank && (
        <dl className="pay-lines" data-testid="deposit-bank">
          <dt>{t('dw.accountName')}</dt>
          <dd>{details.bank.account_name}</dd>
          <dt>{t('dw.accountNumber')}</dt>
          <dd data-testid="deposit-account-number">{details.bank.account_number}</dd>
          <dt>{t('dw.ifsc')}</dt>
          <dd>{details.bank.ifsc}</dd>
          <dt>{t('dw.bank')}</dt>
          <dd>{details.bank.bank_name}</dd>
        </dl>
      )}
      <p className="muted small">{t('dw.payThen')}</p>
    </>
  );
}

function DepositForm() {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<z.infer<typeof depositSchema>>({
    resolver: zodResolver(depositSchema),
    defaultValues: { amount: '', reference: '' },
  });
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const answer = await requestDeposit({ amount: Number(v.amount), reference: v.reference });
      if (!answer.status) return;
      toastSuccess(answer.message || t('dw.depositSent'));
      reset();
      // A request counts against the bettor's deposit limit once sent (unless refused).
      void queryClient.invalidateQueries({ queryKey: LIMITS_KEY });
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'reference'], setError));
    }
  });
  return (
    <>
      <PayTo />
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate data-testid="deposit-form">
        <LimitLeftLine kind="deposit" />
        <Field label={t('dw.amount')} error={errors.amount?.message}>
          <input inputMode="decimal" data-testid="dw-amount" {...register('amount')} />
        </Field>
        <Field label={t('dw.reference')} error={errors.reference?.message}>
          <input data-testid="dw-reference" {...register('reference')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="dw-submit">
          {t('dw.submitDeposit')}
        </button>
      </form>
    </>
  );
}

/** The withdraw form, filled with the bank account the bettor last withdrew to (kept by the server). */
function WithdrawForm() {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const saved = useQuery({ queryKey: ['savedBankAccount'], queryFn: getSavedBankAccount });
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<z.infer<typeof withdrawSchema>>({
    resolver: zodResolver(withdrawSchema),
    defaultValues: { amount: '', account_holder: '', bank_name: '', account_number: '', ifsc: '' },
  });
  useEffect(() => {
    if (saved.data) reset({ amount: '', ...saved.data });
  }, [saved.data, reset]);
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const answer = await requestWithdraw({ ...v, amount: Number(v.amount) });
      if (!answer.status) return;
      toastSuccess(answer.message || t('dw.withdrawSent'));
      // The server saved this account: keep it in the form for the next request.
      reset({ ...v, amount: '' });
      void queryClient.invalidateQueries({ queryKey: ['savedBankAccount'] });
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'account_holder', 'bank_name', 'account_number', 'ifsc'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate data-testid="withdraw-form">
      <Field label={t('dw.amount')} error={errors.amount?.message}>
        <input inputMode="decimal" data-testid="wd-amount" {...register('amount')} />
      </Field>
      <Field label={t('dw.holder')} error={errors.account_holder?.message}>
        <input data-testid="wd-account-holder" {...register('account_holder')} />
      </Field>
      <Field label={t('dw.bankName')} error={errors.bank_name?.message}>
        <input data-testid="wd-bank-name" {...register('bank_name')} />
      </Field>
      <Field label={t('dw.accountNumber')} error={errors.account_number?.message}>
        <input inputMode="numeric" data-testid="wd-account-number" {...register('account_number')} />
      </Field>
      <Field label={t('dw.ifsc')} error={errors.ifsc?.message}>
        <input data-testid="wd-ifsc" {...register('ifsc')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="wd-submit">
        {t('dw.submitWithdraw')}
      </button>
    </form>
  );
}
