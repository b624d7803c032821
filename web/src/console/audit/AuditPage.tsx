import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dataOr } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { AUDIT_PAGE_LIMIT, listAudit, type AuditRow } from './api';

/** `#/console/audit` (admin): who did what, when, from where; read-only, newest first. */
export function AuditPage() {
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['console', 'audit', page],
    queryFn: async () => dataOr(await listAudit(page), null),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  return (
    <PageCard title="Audit log" testId="audit-page">
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Detail</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <tr>
                  <td colSpan={6} className="empty-cell">Nothing recorded yet.</td>
                </tr>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.id} data-testid="audit-row">
                    <td data-label="When">{formatIstDateTime(row.date)}</td>
                    <td data-label="Who">{actor(row)}</td>
                    <td data-label="Action"><code>{row.action}</code></td>
                    <td data-label="Target">{row.target}</td>
                    <td data-label="Detail"><Detail detail={row.detail} /></td>
                    <td data-label="From">{row.client_ip ?? ''}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && data.total > data.limit && (
          <div className="report-footer">
            <span className="muted small">{(page - 1) * data.limit + 1}–{Math.min(page * data.limit, data.total)} of {data.total}</span>
            <Pagination page={page} total={data.total} limit={data.limit || AUDIT_PAGE_LIMIT} onPage={setPage} />
          </div>
        )}
      </QueryState>
    </PageCard>
  );
}

/** The acting user, or the server's own command line and jobs (no user). */
function actor(row: AuditRow): string {
  return row.actor_user_id === -1 ? 'Console / system' : `User #${row.actor_user_id}`;
}

/** An entry's detail (before → after and the like) as key: value lines. */
function Detail({ detail }: { detail: unknown }) {
  if (detail === null || detail === undefined) return null;
  if (typeof detail !== 'object') return <>{JSON.stringify(detail)}</>;
  const lines = Object.entries(detail as Record<string, unknown>).map(
    ([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return <pre className="audit-detail">{lines.join('\n')}</pre>;
}
