import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { dataOr } from '../../api/client';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { useSession } from '../../lib/session';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { accountSummary, accountSummaryKey } from '../accounts/api';
import { clearPayeeDetails, getPayeeDetails, setPayeeDetails, type PayeeDetails, type PayeeDetailsInput } from './api';

const BANK_FIELDS = ['account_name', 'account_number', 'ifsc', 'bank_name'] as const;
const FIELDS = ['upi_id', 'upi_name', ...BANK_FIELDS] as const;

// The server's rules, checked here first so that a slip shows at once; the server checks again.
const detailsSchema = z
  .object({
    upi_id: z
      .string()
      .trim()
      .regex(/^([A-Za-z0-9._-]{2,48}@[A-Za-z0-9]{2,32})?$/, 'Enter a UPI id such as name@okaxis.'),
    upi_name: z.string().trim().max(100, 'UPI name must be at most 100 characters.'),
    account_name: z.string().trim().max(100, 'Account holder must be at most 100 characters.'),
    account_number: z.string().trim().regex(/^(\d{6,20})?$/, 'Account number must be 6 to 20 digits.'),
    ifsc: z.string().trim().regex(/^([A-Za-z]{4}0[A-Za-z0-9]{6})?$/, 'Enter a valid IFSC code, e.g. SBIN0001234.'),
    bank_name: z.string().trim().max(100, 'Bank name must be at most 100 characters.'),
  })
  .superRefine((values, ctx) => {
    const bankGiven = BANK_FIELDS.some((field) => values[field] !== '');
    if (bankGiven) {
      for (const field of BANK_FIELDS) {
        if (values[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: 'Give all four bank fields, or none of them.' });
      }
    }
    if (values.upi_id === '' && !bankGiven) {
      ctx.addIssue({ code: 'custom', path: ['upi_id'], message: 'Give a UPI id, or the bank account (name, number, IFSC, bank), or both.' });
    }
    if (values.upi_name !== '' && values.upi_id === '') {
      ctx.addIssue({ code: 'custom', path: ['upi_id'], message: 'Give the UPI id the name belongs to.' });
    }
  });

function formValues(details: PayeeDetails | null): PayeeDetailsInput {
  return {
    upi_id: details?.upi_id ?? '',
    upi_name: details?.upi_name ?? '',
    account_name: details?.bank?.account_name ?? '',
    account_number: details?.bank?.account_number ?? '',
    ifsc: details?.bank?.ifsc ?? '',
    bank_name: details?.bank?.bank_name ?? '',
  };
}

/**
 * `#/console/payments/details`: the UPI id and bank account the caller's clients pay deposits
 * to (shown on their deposit page); `?user=<id>` for an admin: an agent's.
 */
export function PaymentDetailsPage() {
  const me = useSession();
  const [params] = useSearchParams();
  const named = Number(params.get('user')) || null;
  const userId = named === me?.user_id ? null : named;
  const key = ['console', 'payee-details', userId] as const;
  const details = useQuery({ queryKey: key, queryFn: () => getPayeeDetails(userId) });
  const whose = useQuery({
    queryKey: accountSummaryKey(userId ?? 0),
    queryFn: async () => dataOr(await accountSummary(userId ?? 0), null),
    enabled: userId !== null,
  });
  const name = userId === null ? null : (whose.data?.account.user_name ?? `account #${userId}`);
  return (
    <PageCard
      title={name ? `Payment details of ${name}` : 'Your payment details'}
      testId="payment-details-page"
      actions={
        <Link className="btn btn-sm" to="/console/payments">
          Payment requests
        </Link>
      }
    >
      <p className="muted small">
        {name
          ? `${name}'s clients, and the clients of agents under ${name} who set none, see these on their deposit page.`
          : 'Your clients, and the clients of agents under you who set none, see these on their deposit page.'}
        {userId !== null && (
          <>
            {' '}
            <Link to="/console/payments/details">Your own</Link>
          </>
        )}
      </p>
      <QueryState isPending={details.isPending} error={details.error}>
        {/* A fresh form for each account and each saved version: it starts from what is stored. */}
        <DetailsForm key={`${userId}-${details.data?.updated_at ?? 'none'}`} userId={userId} details={details.data ?? null} queryKey={key} />
      </QueryState>
    </PageCard>
  );
}

function DetailsForm({ userId, details, queryKey }: { userId: number | null; details: PayeeDetails | null; queryKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<PayeeDetailsInput>({
    resolver: zodResolver(detailsSchema),
    defaultValues: formValues(details),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const save = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await setPayeeDetails(userId, values);
      if (!answer.status) return;
      toastSuccess(answer.message);
      await refresh();
    } catch (error) {
      setFormError(applyServerErrors(error, FIELDS, setError));
    }
  });
  const clear = async () => {
    setFormError(null);
    try {
      const answer = await clearPayeeDetails(userId);
      if (!answer.status) return;
      toastSuccess(answer.message);
      await refresh();
    } catch (error) {
      setFormError(applyServerErrors(error, FIELDS, setError));
    }
  };
  return (
    <form className="stack-form" onSubmit={(event) => void save(event)} noValidate data-testid="payment-details-form">
      {details ? (
        <p className="small" data-testid="payment-details-updated">Saved {formatIstDateTime(details.updated_at)}.</p>
      ) : (
        <p className="small" data-testid="payment-details-none">None set yet: clients see the ones set above.</p>
      )}
      <h2 className="small">UPI</h2>
      <Field label="UPI id" error={errors.upi_id?.message}>
        <input autoComplete="off" placeholder="name@okaxis" data-testid="details-upi-id" {...register('upi_id')} />
      </Field>
      <Field label="Name shown by UPI apps (optional)" error={errors.upi_name?.message}>
        <input autoComplete="off" data-testid="details-upi-name" {...register('upi_name')} />
      </Field>
      <h2 className="small">Bank account</h2>
      <Field label="Account holder" error={errors.account_name?.message}>
        <input autoComplete="off" data-testid="details-account-name" {...register('account_name')} />
      </Field>
      <Field label="Account number" error={errors.account_number?.message}>
        <input inputMode="numeric" autoComplete="off" data-testid="details-account-number" {...register('account_number')} />
      </Field>
      <Field label="IFSC" error={errors.ifsc?.message}>
        <input autoComplete="off" placeholder="SBIN0001234" data-testid="details-ifsc" {...register('ifsc')} />
      </Field>
      <Field label="Bank" error={errors.bank_name?.message}>
        <input autoComplete="off" data-testid="details-bank-name" {...register('bank_name')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <div className="modal-actions">
        {details && (
          <button type="button" className="btn btn-danger" onClick={() => void clear()} data-testid="details-clear">
            Remove
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="details-save">
          Save payment details
        </button>
      </div>
    </form>
  );
}
