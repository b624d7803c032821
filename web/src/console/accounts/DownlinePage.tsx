import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { dataOr } from '../../api/client';
import { formatMinorMoney, formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session';
import { consoleRole } from '../nav';
import { DOWNLINE_PAGE_LIMIT, listUsers, type TransferDirection, type UserRow } from './api';
import {
  availableMinor,
  CreateAccountDialog,
  DOWNLINE_QUERY_KEY,
  ExposureLimitDialog,
  LockDialog,
  TransferDialog,
} from './AccountForms';

type Dialog =
  | { kind: 'create' }
  | { kind: 'transfer'; user: UserRow; direction: TransferDirection }
  | { kind: 'lock'; user: UserRow }
  | { kind: 'limit'; user: UserRow };

interface Level {
  id: number;
  name: string;
}

/**
 * `#/console/downline`: the accounts under the caller with their chips, and what the caller
 * does to them. An admin walks down the tree by an agent's name; an agent sees its own clients.
 */
export function DownlinePage() {
  const me = useSession();
  const role = consoleRole(me);
  const isAdmin = role === 'admin';
  // The path from the caller down to the agent whose accounts are listed.
  const [trail, setTrail] = useState<Level[]>([]);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const here = trail.at(-1) ?? (me ? { id: me.user_id, name: me.user_name } : null);
  const parentId = isAdmin && here ? here.id : null;

  const query = useQuery({
    queryKey: [...DOWNLINE_QUERY_KEY, parentId, page],
    queryFn: async () => dataOr(await listUsers(parentId, page), null),
    placeholderData: keepPreviousData,
    enabled: Boolean(me),
  });
  const data = query.data;

  const goTo = (levels: Level[]) => {
    setTrail(levels);
    setPage(1);
  };
  const close = () => setDialog(null);

  return (
    <PageCard
      title="Downline"
      testId="downline-page"
      actions={
        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'create' })} data-testid="create-account">
          Create account
        </button>
      }
    >
      {isAdmin && (
        <nav aria-label="Where in the tree" className="console-toolbar">
          <ol className="console-crumbs" data-testid="downline-trail">
            <li>
              {trail.length === 0 ? <b>{me?.user_name}</b> : <button type="button" className="btn-link" onClick={() => goTo([])}>{me?.user_name}</button>}
            </li>
            {trail.map((level, index) => (
              <li key={level.id}>
                {index === trail.length - 1 ? (
                  <b>{level.name}</b>
                ) : (
                  <button type="button" className="btn-link" onClick={() => goTo(trail.slice(0, index + 1))}>{level.name}</button>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="downline-table">
            <thead>
              <tr>
                <th scope="col">User name</th>
                <th scope="col">Role</th>
                <th scope="col">Balance</th>
                <th scope="col">Exposure</th>
                <th scope="col">Available</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <tr>
                  <td colSpan={7} className="empty-cell">No accounts yet: create one.</td>
                </tr>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.user_id} data-testid="downline-row" data-user-name={row.user_name}>
                    <td data-label="User name">
                      {isAdmin && row.role === 'agent' ? (
                        <button
                          type="button"
                          className="btn-link"
                          title={`Accounts under ${row.user_name}`}
                          onClick={() => goTo([...trail, { id: row.user_id, name: row.user_name }])}
                          data-testid="downline-open"
                        >
                          {row.user_name}
                        </button>
                      ) : (
                        row.user_name
                      )}
                    </td>
                    <td data-label="Role">{row.role === 'agent' ? 'Agent' : 'Client'}</td>
                    <td data-label="Balance" className="num" data-testid="downline-balance">{formatMoney(row.balance)}</td>
                    <td data-label="Exposure" className="num">{formatMoney(row.exposure)}</td>
                    <td data-label="Available" className="num">{formatMinorMoney(availableMinor(row))}</td>
                    <td data-label="Status">
                      <span>
                        <span className={`status-chip${row.is_locked === 1 ? ' locked' : ''}`}>{row.is_locked === 1 ? 'Locked' : 'Active'}</span>
                        {row.is_change_password === 1 && <span className="muted small"> first log-in pending</span>}
                      </span>
                    </td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'transfer', user: row, direction: 'deposit' })} data-testid="row-deposit">
                          Deposit
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'transfer', user: row, direction: 'withdraw' })} data-testid="row-withdraw">
                          Withdraw
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'lock', user: row })} data-testid="row-lock">
                          {row.is_locked === 1 ? 'Unlock' : 'Lock'}
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'limit', user: row })} data-testid="row-exposure-limit">
                          Exposure limit
                        </button>
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && data.total > data.limit && (
          <div className="report-footer">
            <span className="muted small">
              {(page - 1) * data.limit + 1}–{Math.min(page * data.limit, data.total)} of {data.total}
            </span>
            <Pagination page={page} total={data.total} limit={data.limit || DOWNLINE_PAGE_LIMIT} onPage={setPage} />
          </div>
        )}
      </QueryState>
      {dialog?.kind === 'create' && (
        <CreateAccountDialog parent={trail.at(-1) ?? null} onClose={close} />
      )}
      {dialog?.kind === 'transfer' && (
        <TransferDialog user={dialog.user} direction={dialog.direction} parentName={trail.at(-1)?.name ?? null} onClose={close} />
      )}
      {dialog?.kind === 'lock' && <LockDialog user={dialog.user} onClose={close} />}
      {dialog?.kind === 'limit' && <ExposureLimitDialog user={dialog.user} onClose={close} />}
    </PageCard>
  );
}
