// The audit log (admin only): every operator, agent and money action, newest first, filtered
// on the server by who, what and when.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Page } from '../../api/page';

export type AuditRow = Schemas['AuditRow'];

export const AUDIT_PAGE_LIMIT = 50;

/** Each empty filter is left out. */
export interface AuditFilters {
  /** A user name. */
  actor: string;
  /** An action (`chips.transfer`) or its area (`chips`). */
  action: string;
  /** yyyy-MM-dd, a day at UTC+5:30. */
  from_date: string;
  to_date: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { actor: '', action: '', from_date: '', to_date: '' };

/** The filters that are set, as the call takes them (the list's and its download's). */
export function auditParams(filters: AuditFilters): Record<string, string> {
  return Object.fromEntries((Object.entries(filters) as [string, string][]).filter(([, value]) => value.trim() !== ''));
}

export function listAudit(filters: AuditFilters, page: number): Promise<Answer<Page<AuditRow>>> {
  return apiPost<Page<AuditRow>>('admin/audit', { ...auditParams(filters), page, limit: AUDIT_PAGE_LIMIT });
}
