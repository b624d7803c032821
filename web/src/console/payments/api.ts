// Payment requests of the caller's clients (all, for an admin): decided by the parent, whose
// balance pays a deposit and receives a withdrawal.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Page } from '../../features/reports/api';

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
