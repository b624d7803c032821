// The audit log (admin only): every operator, agent and money action, newest first.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Paged } from '../accounts/api';

export type AuditRow = Schemas['AuditRow'];

export const AUDIT_PAGE_LIMIT = 50;

export function listAudit(page: number): Promise<Answer<Paged<AuditRow>>> {
  return apiPost<Paged<AuditRow>>('admin/audit', { page, limit: AUDIT_PAGE_LIMIT });
}
