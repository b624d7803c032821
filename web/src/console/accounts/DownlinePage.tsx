import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { dataOr } from '../../api/client';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session';
import { EmptyRow, PagedFooter } from '../TableParts';
import { AccountFigures, shareText } from './AccountFigures';
import {
  accountSummary,
  accountSummaryKey,
  DOWNLINE_PAGE_LIMIT,
  DOWNLINE_QUERY_KEY,
  FIGURES_REFRESH_MS,
  listDownline,
  type BulkAction,
  type DownlineRow,
  type DownlineSort,
  type SortOrder,
  type TransferDirection,
} from './api';
import { BULK_LABEL, BulkDialog } from './BulkDialog';
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

/** How a drill-down carries its trail to the next page before the server has named it. */
interface DrillState {
  trail?: Level[];
}

/**
 * `#/console/downline?under=<id>&q=<text>`: the accounts under the caller (or under the agent
 * `under`, drilled into: the URL changes, so Back walks up and a link can be shared) with their
 * chips, their branch's figures (an agent row sums the agent and everyone under it), P&L and
 * terms, searched (every level below, each hit with its path), sorted and paged by the server,
 * and what the caller does to them, one at a time or to a selection at once. The figures are
 * read again after every action and every few seconds.
 */
export function DownlinePage() {
  const me = useSession();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const under = Number(params.get('under')) || null;
  const search = params.get('q')?.trim() ?? '';
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [bulk, setBulk] = useState<BulkAction | null>(null);
  const [selected, setSelected] = useState<Map<number, DownlineRow>>(new Map());
  const [searchText, setSearchText] = useState(search);
  const [sort, setSort] = useState<DownlineSort>('name');
  const [order, setOrder] = useState<SortOrder>('asc');
  const [shownFor, setShownFor] = useState(`${under}|${search}`);
  // A new place in the tree (or a new search) starts at its first page with nothing selected.
  if (shownFor !== `${under}|${search}`) {
    setShownFor(`${under}|${search}`);
    setPage(1);
    setSelected(new Map());
    setSearchText(search);
  }

  const listQuery = { parentId: under, search, sort, order, page };
  const query = useQuery({
    queryKey: [...DOWNLINE_QUERY_KEY, listQuery],
    queryFn: async () => dataOr(await listDownline(listQuery), null),
    placeholderData: keepPreviousData,
    enabled: Boolean(me),
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const data = query.data;
  // The way down to `under`, from the caller: the server's, or the one the click carried.
  const summary = useQuery({
    queryKey: accountSummaryKey(under ?? 0),
    queryFn: async () => dataOr(await accountSummary(under ?? 0), null),
    enabled: Boolean(me) && under !== null,
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const carried = (location.state as DrillState | null)?.trail;
  const trail: Level[] =
    under === null
      ? []
      : summary.data
        ? summary.data.trail.filter((step) => step.user_id !== me?.user_id).map((step) => ({ id: step.user_id, name: step.user_name }))
        : (carried ?? [{ id: under, name: `#${under}` }]);
  const parent = trail.at(-1) ?? null;

  const goTo = (levels: Level[]) => {
    const next = new URLSearchParams();
    const last = levels.at(-1);
    if (last) next.set('under', String(last.id));
    void navigate({ pathname: '/console/downline', search: next.toString() ? `?${next}` : '' }, { state: { trail: levels } satisfies DrillState });
  };
  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(params);
    if (searchText.trim()) next.set('q', searchText.trim());
    else next.delete('q');
    setParams(next, { state: location.state as DrillState | null });
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
  // A dialog shows the row as last read, not as it was when opened.
  const latest = (row: DownlineRow) => data?.rows.find((r) => r.user_id === row.user_id) ?? row;
  // Where a row sits: the trail down to the listed parent, then the row's own path below it.
  const levelsTo = (row: DownlineRow): Level[] => [...trail, ...row.path.map((step) => ({ id: step.user_id, name: step.user_name }))];
  const parentNameOf = (row: DownlineRow) => levelsTo(row).at(-2)?.name ?? null;
  const toggle = (row: DownlineRow) => {
    const next = new Map(selected);
    if (next.has(row.user_id)) next.delete(row.user_id);
    else next.set(row.user_id, row);
    setSelected(next);
  };
  const pageRows = data?.rows ?? [];
  const allOnPage = pageRows.length > 0 && pageRows.every((row) => selected.has(row.user_id));
  const toggleAll = () => {
    const next = new Map(selected);
    for (const row of pageRows) {
      if (allOnPage) next.delete(row.user_id);
      else next.set(row.user_id, row);
    }
    setSelected(next);
  };
  const header = (column: DownlineSort, label?: string) => (
    <th
      key={column}
      scope="col"
      className={SORTABLE[column].numeric ? 'num' : undefined}
      aria-sort={column === sort ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="btn-link" onClick={() => sortBy(column)} data-testid={`downline-sort-${column}`}>
        {label ?? SORTABLE[column].label}
        {column === sort && <span aria-hidden="true">{order === 'asc' ? ' ▲' : ' ▼'}</span>}
      </button>
    </th>
  );

  const crumbs = trail.length > 0 && (
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
  );
  const selection = [...selected.values()];

  return (
    <PageCard
      title="Downline"
      testId="downline-page"
      actions={
        <span className="row-actions">
          <DownloadCsvButton path="console/downline/list" params={{ ...(under === null ? {} : { parent_id: under }), ...(search ? { search } : {}), sort, order }} />
          <button type="button" className="btn btn-sm" onClick={() => setDialog({ kind: 'create' })} data-testid="create-account">
            Create account
          </button>
        </span>
      }
    >
      <form className="console-toolbar" role="search" onSubmit={applySearch}>
        <input
          type="search"
          aria-label="Search user name"
          placeholder={parent ? `User name, anywhere under ${parent.name}` : 'User name, anywhere below you'}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          data-testid="downline-search"
        />
        <button type="submit" className="btn btn-sm" data-testid="downline-search-submit">Search</button>
      </form>
      {crumbs}
      {summary.data && summary.data.account.role === 'agent' && <AccountFigures user={summary.data.account} />}
      {selection.length > 0 && (
        <div className="bulk-bar" role="toolbar" aria-label="With the selected accounts" data-testid="bulk-bar">
          <span data-testid="bulk-count">{selection.length} selected</span>
          {(Object.keys(BULK_LABEL) as BulkAction[]).map((action) => (
            <button key={action} type="button" className="btn btn-sm" onClick={() => setBulk(action)} data-testid={`bulk-${action}`}>
              {BULK_LABEL[action]}
            </button>
          ))}
          <button type="button" className="btn-link small" onClick={() => setSelected(new Map())} data-testid="bulk-clear">Clear selection</button>
        </div>
      )}
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="downline-table">
            <caption className="muted small">
              An agent&apos;s balance, exposure and available are its branch&apos;s: the agent and every account under it.
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <input type="checkbox" aria-label="Select every account on this page" checked={allOnPage} onChange={toggleAll} data-testid="downline-select-all" />
                </th>
                {header('name')}
                <th scope="col">Role</th>
                <th scope="col" className="num">Share</th>
                {header('balance')}
                {header('exposure')}
                {header('available')}
                {header('pnl', 'P&L (their side: + they won)')}
                <th scope="col" className="num">Credit ref.</th>
                <th scope="col">Status</th>
                {header('last_login')}
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <EmptyRow colSpan={12}>{search ? `No account matches “${search}”.` : 'No accounts yet: create one.'}</EmptyRow>
              ) : (
                data.rows.map((row) => {
                  const agentRow = row.role === 'agent';
                  const levels = levelsTo(row);
                  return (
                    <tr key={row.user_id} data-testid="downline-row" data-user-name={row.user_name}>
                      <td data-label="Select">
                        <input type="checkbox" aria-label={`Select ${row.user_name}`} checked={selected.has(row.user_id)} onChange={() => toggle(row)} data-testid="downline-select" />
                      </td>
                      <td data-label="User name">
                        <Link to={`/console/account/${row.user_id}`} title={`${row.user_name}'s statement, bets and P&L`} data-testid="downline-account">
                          {row.user_name}
                        </Link>
                        {agentRow && (
                          <>
                            {' '}
                            <button
                              type="button"
                              className="btn-link small"
                              title={`Accounts under ${row.user_name}, and a new one there`}
                              onClick={() => goTo(levels)}
                              data-testid="downline-open"
                            >
                              ({row.children} below)
                            </button>
                          </>
                        )}
                        {search && (
                          <span className="downline-path muted small" data-testid="downline-path">
                            {[me?.user_name ?? '', ...levels.map((level) => level.name)].join(' › ')}
                          </span>
                        )}
                      </td>
                      <td data-label="Role">{agentRow ? 'Agent' : 'Client'}</td>
                      <td data-label="Share" className="num" data-testid="downline-share">{agentRow ? shareText(row.partnership) : ''}</td>
                      <td data-label="Balance" className="num" data-testid="downline-balance">
                        {formatMoney(row.branch_balance)}
                        {agentRow && <div className="muted small" data-testid="downline-own-balance">own {formatMoney(row.balance)}</div>}
                      </td>
                      <td data-label="Exposure" className="num" data-testid="downline-exposure">{formatMoney(row.branch_exposure)}</td>
                      <td data-label="Available" className="num" data-testid="downline-available">{formatMoney(row.branch_available)}</td>
                      <td data-label="P&L (+: they won)" className={`num pnl ${row.pnl > 0 ? 'win' : row.pnl < 0 ? 'lose' : ''}`} data-testid="downline-pnl">
                        {formatMoney(row.pnl)}
                      </td>
                      <td data-label="Credit ref." className="num" data-testid="downline-credit-reference">{formatMoney(row.credit_reference)}</td>
                      <td data-label="Status">
                        <span className={`status-chip${row.status === 'active' ? '' : ' locked'}`} data-testid="downline-status">{STATUS_LABEL[row.status]}</span>
                        {(row.locked_by ?? row.bet_locked_by) && (
                          <span className="status-chip locked" data-testid="downline-held-by" title="A lock on an agent above covers its whole branch">
                            {row.locked_by ? `Locked by ${row.locked_by}` : `Bet-locked by ${row.bet_locked_by ?? ''}`}
                          </span>
                        )}
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
                          {agentRow && me?.role === 'admin' && (
                            <Link className="btn btn-sm" to={`/console/payments/details?user=${row.user_id}`} data-testid="row-payment-details">
                              Payment details
                            </Link>
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
        {data && <PagedFooter page={page} total={data.total} limit={data.limit || DOWNLINE_PAGE_LIMIT} onPage={setPage} />}
      </QueryState>
      {dialog?.kind === 'create' && (
        <CreateAccountDialog parent={parent} onClose={close} />
      )}
      {dialog?.kind === 'transfer' && (
        <TransferDialog user={latest(dialog.user)} direction={dialog.direction} parentName={parentNameOf(dialog.user)} onClose={close} />
      )}
      {dialog?.kind === 'lock' && <LockDialog user={latest(dialog.user)} onClose={close} />}
      {dialog?.kind === 'terms' && <TermsDialog user={latest(dialog.user)} onClose={close} />}
      {dialog?.kind === 'password' && <ResetPasswordDialog user={dialog.user} onClose={close} />}
      {bulk && (
        <BulkDialog
          action={bulk}
          rows={selection.map(latest)}
          onClose={() => setBulk(null)}
          onDone={() => setSelected(new Map())}
        />
      )}
    </PageCard>
  );
}
