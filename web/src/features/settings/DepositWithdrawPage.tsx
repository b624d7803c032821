import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from '../../lib/zod';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { paymentGatewayOn, useGlobalSetting } from '../../hooks/useGlobalSetting';
import { applyServerErrors } from '../../lib/forms';
import { hasParent, useSession } from '../../lib/session';
import { toastSuccess } from '../../lib/toast';
import { getPaymentDetails, getSavedBankAccount, requestDeposit, requestWithdraw, type PaymentDetails } from './api';

/**
 * What is wrong with an amount as typed, the most telling thing first; null when nothing is. A
 * sign before the digits is what is wrong with "-500", not its format, so it is said first in
 * the server's own words (payment.rs: "Amount must be more than 0.").
 */
export function amountProblem(text: string): string | null {
  if (text === '') return 'Amount is required.';
  if (/^-\s*\d/.test(text) || (/^\d+(\.\d+)?$/.test(text) && Number(text) === 0)) return 'Amount must be more than 0.';
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return 'Amount must be a number with at most 2 decimals.';
  if (Number(text) < 100) return 'The smallest amount is 100.';
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
  reference: z.string().trim().min(4, 'Enter the payment reference (UTR) of your transfer.').max(64, 'Reference is too long.'),
});
const withdrawSchema = z.object({
  amount,
  account_holder: z.string().trim().min(2, 'Account holder name is required.').max(64),
  bank_name: z.string().trim().min(2, 'Bank name is required.').max(64),
  account_number: z.string().trim().regex(/^\d{6,20}$/, 'Account number must be 6 to 20 digits.'),
  ifsc: z.string().trim().toUpperCase().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'Enter a valid IFSC code, e.g. SBIN0001234.'),
});

/** /setting/d-w: a deposit or withdraw request, shown only with the payment gateway on and a parent. */
export function DepositWithdrawPage() {
  const user = useSession();
  const { data: setting } = useGlobalSetting();
  const [tab, setTab] = useState<'deposit' | 'withdraw'>('deposit');
  const allowed = paymentGatewayOn(setting) && hasParent(user);
  return (
    <PageCard title="Deposit / Withdraw" testId="deposit-withdraw-page">
      {!allowed ? (
        <p className="empty-state">Deposits and withdrawals are not available for this account.</p>
      ) : (
        <>
          <div className="tabs" role="tablist">
            <button type="button" role="tab" aria-selected={tab === 'deposit'} className={tab === 'deposit' ? 'active' : undefined} onClick={() => setTab('deposit')}>
              Deposit
            </button>
            <button type="button" role="tab" aria-selected={tab === 'withdraw'} className={tab === 'withdraw' ? 'active' : undefined} onClick={() => setTab('withdraw')} data-testid="withdraw-tab">
              Withdraw
            </button>
          </div>
          {tab === 'deposit' ? <DepositForm /> : <WithdrawForm />}
          <p className="muted small">
            Requests are approved by your agent. See them in the <Link to="/report/payment-withdraw">Payment Statement</Link>.
          </p>
        </>
      )}
    </PageCard>
  );
}

/** Where to pay: the payee's UPI id with a QR code of its upi:// link, and/or its bank account. */
function PayTo() {
  const details = useQuery({ queryKey: ['paymentDetails'], queryFn: getPaymentDetails });
  return (
    <section className="pay-to" aria-label="Where to pay" data-testid="pay-to">
      <QueryState isPending={details.isPending} error={details.error} isEmpty={!details.data} empty="Your agent has not set payment details yet: ask them where to pay.">
        {details.data && <PayeeDetails details={details.data} />}
      </QueryState>
    </section>
  );
}

function PayeeDetails({ details }: { details: PaymentDetails }) {
  return (
    <>
      {details.upi_id && details.upi_uri && (
        <div className="pay-upi">
          <div className="qr-box" data-testid="deposit-qr" aria-label={`QR code to pay ${details.upi_id}`}>
            <QRCodeSVG value={details.upi_uri} size={160} marginSize={2} />
          </div>
          <dl className="pay-lines">
            <dt>UPI id</dt>
            <dd data-testid="deposit-upi-id">{details.upi_id}</dd>
            {details.upi_name && (
              <>
                <dt>Name</dt>
                <dd>{details.upi_name}</dd>
              </>
            )}
          </dl>
        </div>
      )}
      {details.bank && (
        <dl className="pay-lines" data-testid="deposit-bank">
          <dt>Account name</dt>
          <dd>{details.bank.account_name}</dd>
          <dt>Account number</dt>
          <dd data-testid="deposit-account-number">{details.bank.account_number}</dd>
          <dt>IFSC</dt>
          <dd>{details.bank.ifsc}</dd>
          <dt>Bank</dt>
          <dd>{details.bank.bank_name}</dd>
        </dl>
      )}
      <p className="muted small">Pay, then send the amount and the payment reference (UTR) below.</p>
    </>
  );
}

function DepositForm() {
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
      toastSuccess(answer.message || 'Deposit request sent.');
      reset();
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'reference'], setError));
    }
  });
  return (
    <>
      <PayTo />
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate data-testid="deposit-form">
        <Field label="Amount" error={errors.amount?.message}>
          <input inputMode="decimal" data-testid="dw-amount" {...register('amount')} />
        </Field>
        <Field label="Payment reference (UTR)" error={errors.reference?.message}>
          <input data-testid="dw-reference" {...register('reference')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="dw-submit">
          Submit Deposit
        </button>
      </form>
    </>
  );
}

/** The withdraw form, filled with the bank account the bettor last withdrew to (kept by the server). */
function WithdrawForm() {
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
      toastSuccess(answer.message || 'Withdraw request sent.');
      // The server saved this account: keep it in the form for the next request.
      reset({ ...v, amount: '' });
      void queryClient.invalidateQueries({ queryKey: ['savedBankAccount'] });
    } catch (error) {
      setFormError(applyServerErrors(error, ['amount', 'account_holder', 'bank_name', 'account_number', 'ifsc'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate data-testid="withdraw-form">
      <Field label="Amount" error={errors.amount?.message}>
        <input inputMode="decimal" data-testid="wd-amount" {...register('amount')} />
      </Field>
      <Field label="Account holder name" error={errors.account_holder?.message}>
        <input data-testid="wd-account-holder" {...register('account_holder')} />
      </Field>
      <Field label="Bank name" error={errors.bank_name?.message}>
        <input data-testid="wd-bank-name" {...register('bank_name')} />
      </Field>
      <Field label="Account number" error={errors.account_number?.message}>
        <input inputMode="numeric" data-testid="wd-account-number" {...register('account_number')} />
      </Field>
      <Field label="IFSC" error={errors.ifsc?.message}>
        <input data-testid="wd-ifsc" {...register('ifsc')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="wd-submit">
        Submit Withdraw
      </button>
    </form>
  );
}
