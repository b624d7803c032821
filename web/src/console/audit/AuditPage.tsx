import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, dataOr } from '../../api/client';
import { Field } from '../../components/Field';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { EmptyRow, PagedFooter } from '../TableParts';
import { AUDIT_PAGE_LIMIT, auditParams, listAudit, NO_AUDIT_FILTERS, type AuditFilters, type AuditRow } from './api';

/** Areas of actions to suggest; the server takes any area or action. */
const ACTION_AREAS = ['chips', 'user', 'payment', 'settings', 'market', 'match', 'series', 'sport', 'casino_game', 'casino_category', 'provider', 'world_casino', 'image'];

/** `#/console/audit` (admin): who did what, when, from where; read-only, newest first. */
export function AuditPage() {
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const query = useQuery({
    queryKey: ['console', 'audit', filters, page],
    queryFn: async () => dataOr(await listAudit(filters, page), null),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  // A filter the server refused is shown at its field; anything else above the table.
  const fieldErrors = query.error instanceof ApiError ? query.error.fieldErrors : {};
  const tableError = Object.keys(fieldErrors).length > 0 ? null : query.error;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const edit = (key: keyof AuditFilters) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });
  return (
    <PageCard title="Audit log" testId="audit-page" actions={<DownloadCsvButton path="admin/audit" params={auditParams(filters)} />}>
      <form className="filter-row" onSubmit={apply} aria-label="Filters" data-testid="audit-filters">
        <Field label="Who (user name)" error={fieldErrors.actor}>
          <input value={draft.actor} onChange={edit('actor')} autoComplete="off" data-testid="audit-actor" />
        </Field>
        <Field label="Action or area" error={fieldErrors.action}>
          <input value={draft.action} onChange={edit('action')} list="audit-action-areas" placeholder="chips or chips.transfer" autoComplete="off" data-testid="audit-action" />
        </Field>
        <datalist id="audit-action-areas">
          {ACTION_AREAS.map((area) => (
            <option key={area} value={area} />
          ))}
        </datalist>
        <Field label="From" error={fieldErrors.from_date}>
          <input type="date" value={draft.from_date} onChange={edit('from_date')} data-testid="audit-from" />
        </Field>
        <Field label="To" error={fieldErrors.to_date}>
          <input type="date" value={draft.to_date} onChange={edit('to_date')} data-testid="audit-to" />
        </Field>
        <button type="submit" className="btn btn-primary" data-testid="audit-apply">Apply</button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setDraft(NO_AUDIT_FILTERS);
            setFilters(NO_AUDIT_FILTERS);
            setPage(1);
          }}
        >
          Clear
        </button>
      </form>
      <QueryState isPending={query.isPending && !query.error} error={tableError}>
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
                <EmptyRow colSpan={6}>Nothing recorded yet.</EmptyRow>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.id} data-testid="audit-row">
                    <td data-label="When">{formatIstDateTime(row.date)}</td>
                    <td data-label="Who">{actor(row)}</td>
                    <td data-label="Action"><code>{row.action}</code></td>
                    <td data-label="Target">{target(row)}</td>
                    <td data-label="Detail"><Detail detail={row.detail} /></td>
                    <td data-label="From">{row.client_ip ?? ''}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && <PagedFooter page={page} total={data.total} limit={data.limit || AUDIT_PAGE_LIMIT} onPage={setPage} />}
      </QueryState>
    </PageCard>
  );
}

/** The acting user, or the server's own command line and jobs (no user). */
function actor(row: AuditRow): string {
  if (row.actor_user_id === -1) return 'Console / system';
  return row.actor_name || `User #${row.actor_user_id}`;
}

/** Whom: the account's name beside its id (`ravi (user #9)`), or the bare target. */
function target(row: AuditRow): string {
  const [kind, id] = row.target.split(':');
  if (!row.target_name || id === undefined) return row.target;
  return `${row.target_name} (${kind.replace('_', ' ')} #${id})`;
}

/** A value of a detail line; `{ before, after }` reads as `before → after`. */
function detailValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'before' in value && 'after' in value && Object.keys(value).length === 2) {
    return `${detailValue(value.before)} → ${detailValue(value.after)}`;
  }
  return JSON.stringify(value);
}

/**
 * An entry's detail as key: value lines; money is in rupees, a change reads before → after
 * (both a `{ before, after }` value and the `before` and `after` keys of a whole entry).
 */
function Detail({ detail }: { detail: unknown }) {
  if (detail === null || detail === undefined) return null;
  if (typeof detail !== 'object') return <>{JSON.stringify(detail)}</>;
  const lines = Object.entries(detail as Record<string, unknown>).map(([key, value]) => `${key}: ${detailValue(value)}`);
  return <pre className="audit-detail">{lines.join('\n')}</pre>;
}
