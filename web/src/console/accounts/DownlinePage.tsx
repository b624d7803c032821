import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { dataOr } from '../../api/client';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session';
import { EmptyRow, PagedFooter } from '../TableParts';
import { DOWNLINE_PAGE_LIMIT, DOWNLINE_QUERY_KEY, listDownline, type DownlineRow, type DownlineSort, type SortOrder, type TransferDirection } from './api';
import {
  CreateAccountDialog,
  LockDialog,
  ResetPasswordDialog,
  TermsDialog,
  TransferDialog,
} from './AccountForms';

type Dialog =
  | { kind: 'create' }
  | { kind: 'transfer'; user: DownlineRow; direction: TransferDirection }
  | { kind: 'lock'; user: DownlineRow }
  | { kind: 'terms'; user: DownlineRow }
  | { kind: 'password'; user: DownlineRow };

/** The columns the server sorts by. */
const SORTABLE: Record<DownlineSort, { label: string; numeric: boolean }> = {
  name: { label: 'User name', numeric: false },
  balance: { label: 'Balance', numeric: true },
  exposure: { label: 'Exposure', numeric: true },
  available: { label: 'Available', numeric: true },
  pnl: { label: 'P&L', numeric: true },
  last_login: { label: 'Last log-in', numeric: false },
};

const STATUS_LABEL: Record<DownlineRow['status'], string> = {
  active: 'Active',
  locked: 'Locked',
  bet_locked: 'Bet-locked',
};

interface Level {
  id: number;
  name: string;
}

/**
 * `#/console/downline`: the accounts under the caller with their chips, P&L and terms, searched,
 * sorted and paged by the server, and what the caller does to them. An agent's "n below"
 * walks down the tree (even at 0: to create its first account); a name opens the account's page.
 */
export function DownlinePage() {
  const me = useSession();
  // The path from the caller down to the agent whose accounts are listed.
  const [trail, setTrail] = useState<Level[]>([]);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<DownlineSort>('name');
  const [order, setOrder] = useState<SortOrder>('asc');
  const parentId = trail.at(-1)?.id ?? null;

  const listQuery = { parentId, search, sort, order, page };
  const query = useQuery({
    queryKey: [...DOWNLINE_QUERY_KEY, listQuery],
    queryFn: async () => dataOr(await listDownline(listQuery), null),
    placeholderData: keepPreviousData,
    enabled: Boolean(me),
  });
  const data = query.data;

  const goTo = (levels: Level[]) => {
    setTrail(levels);
    setPage(1);
  };
  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch(searchText.trim());
    setPage(1);
  };
  // A second click on the sorted column turns it round; a new column starts from the top
  // for amounts and dates (the largest or latest first), from A for names.
  const sortBy = (column: DownlineSort) => {
    if (column === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setOrder(column === 'name' ? 'asc' : 'desc');
    }
    setPage(1);
  };
  const close = () => setDialog(null);
  const header = (column: DownlineSort) => (
    <th
      key={column}
      scope="col"
      className={SORTABLE[column].numeric ? 'num' : undefined}
      aria-sort={column === sort ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="btn-link" onClick={() => sortBy(column)} data-testid={`downline-sort-${column}`}>
        {SORTABLE[column].label}
        {column === sort && <span aria-hidden="true">{order === 'asc' ? ' ▲' : ' ▼'}</span>}
      </button>
    </th>
  );

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
      <form className="console-toolbar" role="search" onSubmit={applySearch}>
        <input
          type="search"
          aria-label="Search user name"
          placeholder="User name"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          data-testid="downline-search"
        />
        <button type="submit" className="btn btn-sm" data-testid="downline-search-submit">Search</button>
      </form>
      {trail.length > 0 && (
        <nav aria-label="Where in the tree" className="console-toolbar">
          <ol className="console-crumbs" data-testid="downline-trail">
            <li>
              <button type="button" className="btn-link" onClick={() => goTo([])}>{me?.user_name}</button>
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
                {header('name')}
                <th scope="col">Role</th>
                {header('balance')}
                {header('exposure')}
                {header('available')}
                {header('pnl')}
                <th scope="col" className="num">Credit ref.</th>
                <th scope="col">Status</th>
                {header('last_login')}
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <EmptyRow colSpan={10}>{search ? `No account matches “${search}”.` : 'No accounts yet: create one.'}</EmptyRow>
              ) : (
                data.rows.map((row) => (
                  <tr key={row.user_id} data-testid="downline-row" data-user-name={row.user_name}>
                    <td data-label="User name">
                      <Link to={`/console/account/${row.user_id}`} title={`${row.user_name}'s statement, bets and P&L`} data-testid="downline-account">
                        {row.user_name}
                      </Link>
                      {row.role === 'agent' && (
                        <>
                          {' '}
                          <button
                            type="button"
                            className="btn-link small"
                            title={`Accounts under ${row.user_name}, and a new one there`}
                            onClick={() => goTo([...trail, { id: row.user_id, name: row.user_name }])}
                            data-testid="downline-open"
                          >
                            ({row.children} below)
                          </button>
                        </>
                      )}
                    </td>
                    <td data-label="Role">{row.role === 'agent' ? 'Agent' : 'Client'}</td>
                    <td data-label="Balance" className="num" data-testid="downline-balance">{formatMoney(row.balance)}</td>
                    <td data-label="Exposure" className="num">{formatMoney(row.exposure)}</td>
                    <td data-label="Available" className="num">{formatMoney(row.available)}</td>
                    <td data-label="P&L" className={`num pnl ${row.pnl > 0 ? 'win' : row.pnl < 0 ? 'lose' : ''}`} data-testid="downline-pnl">
                      {formatMoney(row.pnl)}
                    </td>
                    <td data-label="Credit ref." className="num" data-testid="downline-credit-reference">{formatMoney(row.credit_reference)}</td>
                    <td data-label="Status">
                      <span className={`status-chip${row.status === 'active' ? '' : ' locked'}`} data-testid="downline-status">{STATUS_LABEL[row.status]}</span>
                    </td>
                    <td data-label="Last log-in" className="small">{row.last_login ? formatIstDateTime(row.last_login) : <span className="muted">never</span>}</td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'transfer', user: row, direction: 'deposit' })} data-testid="row-deposit">
                          Deposit
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'transfer', user: row, direction: 'withdraw' })} data-testid="row-withdraw">
                          Withdraw
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'terms', user: row })} data-testid="row-terms">
                          Terms
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'lock', user: row })} data-testid="row-lock">
                          {row.status === 'locked' ? 'Unlock' : 'Lock'}
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'password', user: row })} data-testid="row-reset-password">
                          Reset password
                        </button>
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && <PagedFooter page={page} total={data.total} limit={data.limit || DOWNLINE_PAGE_LIMIT} onPage={setPage} />}
      </QueryState>
      {dialog?.kind === 'create' && (
        <CreateAccountDialog parent={trail.at(-1) ?? null} onClose={close} />
      )}
      {dialog?.kind === 'transfer' && (
        <TransferDialog user={dialog.user} direction={dialog.direction} parentName={trail.at(-1)?.name ?? null} onClose={close} />
      )}
      {dialog?.kind === 'lock' && <LockDialog user={dialog.user} onClose={close} />}
      {dialog?.kind === 'terms' && <TermsDialog user={dialog.user} onClose={close} />}
      {dialog?.kind === 'password' && <ResetPasswordDialog user={dialog.user} onClose={close} />}
    </PageCard>
  );
}
