// Payment requests of the caller's clients (all, for an admin): decided by the parent, whose
// balance pays a deposit and receives a withdrawal.
import { apiGet, apiPost, dataOr, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Page } from '../../api/page';

export type PaymentRequestRow = Schemas['PaymentRequestRow'];
export type PaymentStatus = Schemas['PaymentStatus'];

export const PAYMENTS_PAGE_LIMIT = 25;

/** `status`: null for every request. */
export function listPayments(status: PaymentStatus | null, page: number): Promise<Answer<Page<PaymentRequestRow>>> {
  return apiPost<Page<PaymentRequestRow>>('admin/payment/list', { ...(status ? { status } : {}), page, limit: PAYMENTS_PAGE_LIMIT });
}

export function approvePayment(requestId: number, remark: string): Promise<Answer<Schemas['ApprovedData']>> {
  return apiPost<Schemas['ApprovedData']>('admin/payment/approve', { request_id: requestId, remark });
}

export function rejectPayment(requestId: number, remark: string): Promise<Answer<Schemas['RejectedData']>> {
  return apiPost<Schemas['RejectedData']>('admin/payment/reject', { request_id: requestId, remark });
}

/** What a payee shows its clients on their deposit page. */
export type PayeeDetails = Schemas['PaymentDetailsItem'];

/** The fields of the payment details form, as typed; empty: not given. */
export interface PayeeDetailsInput {
  upi_id: string;
  upi_name: string;
  account_name: string;
  account_number: string;
  ifsc: string;
  bank_name: string;
}

/** `userId` null: the caller's own (else an account the caller may read). */
export async function getPayeeDetails(userId: number | null): Promise<PayeeDetails | null> {
  const answer =
    userId === null
      ? await apiGet<PayeeDetails | null>('admin/payment/details')
      : await apiPost<PayeeDetails | null>('console/account/paymentDetails', { user_id: userId });
  return dataOr(answer, null);
}

/** Sets (replaces) the details; `userId` null: the caller's own, else (an admin) an agent's. */
export function setPayeeDetails(userId: number | null, input: PayeeDetailsInput): Promise<Answer<PayeeDetails | null>> {
  return apiPost<PayeeDetails | null>('admin/payment/details', { ...(userId === null ? {} : { user_id: userId }), ...input });
}

export function clearPayeeDetails(userId: number | null): Promise<Answer<PayeeDetails | null>> {
  return apiPost<PayeeDetails | null>('admin/payment/details', { ...(userId === null ? {} : { user_id: userId }), clear: true });
}
