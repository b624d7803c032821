import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Route, Routes } from 'react-router';
import { BALANCE_QUERY_KEY } from '../../api/balance';
import { dataOr } from '../../api/client';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { applyServerErrors } from '../../lib/forms';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { DOWNLINE_QUERY_KEY, FIGURES_REFRESH_MS } from '../accounts/api';
import { EmptyRow, PagedFooter } from '../TableParts';
import { PaymentDetailsPage } from './PaymentDetailsPage';
import { approvePayment, listPayments, PAYMENTS_PAGE_LIMIT, rejectPayment, type PaymentRequestRow, type PaymentStatus } from './api';

const PAYMENTS_QUERY_KEY = ['console', 'payments'] as const;

/** `#/console/payments/…`: the requests, and the details clients pay to. */
export function PaymentsRoutes() {
  return (
    <Routes>
      <Route index element={<PaymentsPage />} />
      <Route path="details" element={<PaymentDetailsPage />} />
    </Routes>
  );
}
const FILTERS: { status: PaymentStatus | null; label: string }[] = [
  { status: 'pending', label: 'Pending' },
  { status: 'approved', label: 'Approved' },
  { status: 'rejected', label: 'Rejected' },
  { status: null, label: 'All' },
];

type Decision = { request: PaymentRequestRow; approve: boolean };

/** `#/console/payments`: deposit and withdraw requests from the client app, approved or rejected by the parent. */
export function PaymentsPage() {
  const [status, setStatus] = useState<PaymentStatus | null>('pending');
  const [page, setPage] = useState(1);
  const [decision, setDecision] = useState<Decision | null>(null);
  const query = useQuery({
    queryKey: [...PAYMENTS_QUERY_KEY, status, page],
    queryFn: async () => dataOr(await listPayments(status, page), null),
    placeholderData: keepPreviousData,
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const data = query.data;
  return (
    <PageCard
      title="Payment requests"
      testId="payments-page"
      actions={
        <span className="row-actions">
          <DownloadCsvButton path="admin/payment/list" params={status === null ? {} : { status }} />
          <Link className="btn btn-sm" to="/console/payments/details" data-testid="payments-own-details">
            Your payment details
          </Link>
        </span>
      }
    >
      <div className="chip-tabs" role="group" aria-label="Status">
        {FILTERS.map((filter) => (
          <button
            type="button"
            key={filter.label}
            className={filter.status === status ? 'active' : undefined}
            aria-pressed={filter.status === status}
            onClick={() => {
              setStatus(filter.status);
              setPage(1);
            }}
            data-testid={`payments-filter-${filter.status ?? 'all'}`}
          >
            {filter.label}
          </button>
        ))}
      </div>
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="payments-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">User</th>
                <th scope="col">Type</th>
                <th scope="col">Amount</th>
                <th scope="col">Details</th>
                <th scope="col">Status</th>
                <th scope="col">Remark</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <EmptyRow colSpan={8}>No {status ?? ''} requests.</EmptyRow>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.request_id} data-testid="payment-row">
                    <td data-label="Date">{formatIstDateTime(row.date)}</td>
                    <td data-label="User">{row.user_name}</td>
                    <td data-label="Type">{row.type === 'deposit' ? 'Deposit' : 'Withdraw'}</td>
                    <td data-label="Amount" className="num">{formatMoney(row.amount)}</td>
                    <td data-label="Details"><PaymentDetails row={row} /></td>
                    <td data-label="Status"><span className={`status-chip ${row.status}`}>{row.status}</span></td>
                    <td data-label="Remark">{row.remark}</td>
                    <td data-label="Actions">
                      {row.status === 'pending' ? (
                        <div className="row-actions">
                          <button type="button" className="btn btn-sm btn-primary" onClick={() => setDecision({ request: row, approve: true })} data-testid="payment-approve">
                            Approve
                          </button>
                          <button type="button" className="btn btn-sm" onClick={() => setDecision({ request: row, approve: false })} data-testid="payment-reject">
                            Reject
                          </button>
                        </div>
                      ) : (
                        <span className="muted small">{row.decided_at ? formatIstDateTime(row.decided_at) : ''}</span>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && <PagedFooter page={page} total={data.total} limit={data.limit || PAYMENTS_PAGE_LIMIT} onPage={setPage} />}
      </QueryState>
      {decision && <DecisionDialog decision={decision} onClose={() => setDecision(null)} />}
    </PageCard>
  );
}

/** A deposit's UTR to find in the bank statement; a withdrawal's account to pay. */
function PaymentDetails({ row }: { row: PaymentRequestRow }) {
  if (row.type === 'deposit') return <>UTR <code>{row.reference}</code></>;
  return (
    <span className="small">
      {row.account_holder}, {row.bank_name}, {row.account_number}, IFSC {row.ifsc}
    </span>
  );
}

const approveSchema = z.object({ remark: z.string().trim().max(200, 'Remark must be at most 200 characters.') });
const rejectSchema = z.object({
  remark: z.string().trim().min(1, 'Say why, for the user.').max(200, 'Remark must be at most 200 characters.'),
});

function DecisionDialog({ decision, onClose }: { decision: Decision; onClose: () => void }) {
  const { request, approve } = decision;
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<{ remark: string }>({
    resolver: zodResolver(approve ? approveSchema : rejectSchema),
    defaultValues: { remark: '' },
  });
  const submit = handleSubmit(async ({ remark }) => {
    setFormError(null);
    try {
      const answer = approve ? await approvePayment(request.request_id, remark) : await rejectPayment(request.request_id, remark);
      if (!answer.status) return;
      toastSuccess(answer.message);
      void queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: DOWNLINE_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: BALANCE_QUERY_KEY });
      onClose();
    } catch (error) {
      setFormError(applyServerErrors(error, ['remark'], setError));
    }
  });
  const what = request.type === 'deposit' ? 'deposit' : 'withdrawal';
  return (
    <Modal title={`${approve ? 'Approve' : 'Reject'} ${what} of ${formatMoney(request.amount)}`} onClose={onClose} size="sm" testId="payment-decision-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="muted small">
          {approve
            ? request.type === 'deposit'
              ? `${formatMoney(request.amount)} goes from the parent's balance to ${request.user_name}. Check the UTR in the bank statement first.`
              : `${formatMoney(request.amount)} comes back from ${request.user_name} to the parent's balance. Pay the account first.`
            : `${request.user_name} sees the request rejected with your remark; no chips move.`}
        </p>
        <Field label={approve ? 'Remark (optional)' : 'Remark'} error={errors.remark?.message}>
          <input autoComplete="off" data-testid="decision-remark" {...register('remark')} />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className={`btn ${approve ? 'btn-primary' : 'btn-danger'}`} disabled={isSubmitting} data-testid="decision-submit">
            {approve ? 'Approve' : 'Reject'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
