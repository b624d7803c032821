import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { dataOr } from '../../api/client';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime, formatMinorMoney, formatMoney } from '../../lib/format';
import { toMinor } from '../../lib/money';
import { EmptyRow } from '../TableParts';
import { useSession } from '../../lib/session';
import { AccountFigures } from '../accounts/AccountFigures';
import { accountSummary, accountSummaryKey, FIGURES_REFRESH_MS } from '../accounts/api';
import { SaferPanel } from '../safer/SaferPanel';
import {
  accountBetHistory,
  accountBets,
  accountPnl,
  betHistoryParams,
  accountStatement,
  ACCOUNT_PAGE_LIMIT,
  riskKeys,
  type BetHistoryFilter,
  type SportsBet,
} from './api';
import { pnlClass } from './position';
import './risk.css';

const TABS = [
  { id: 'statement', label: 'Statement' },
  { id: 'bets', label: 'Bets' },
  { id: 'history', label: 'Settled bets' },
  { id: 'pnl', label: 'P&L' },
] as const;
type Tab = (typeof TABS)[number]['id'];

const STATUS_TEXT = { active: 'Active', locked: 'Locked', bet_locked: 'Bet-locked' } as const;

const OUTCOMES: { value: BetHistoryFilter['outcome']; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'won', label: 'Won' },
  { value: 'lost', label: 'Lost' },
  { value: 'void', label: 'Void' },
];

/**
 * `#/console/account/<userId>`: one downline account: a header with its chips (and its
 * branch's, for an agent), terms, status and the way down to it, a client's safer gambling
 * (read-only), then its statement, current bets, settled bets and P&L. Figures are read again
 * every few seconds.
 */
export function AccountPage() {
  const userId = Number(useParams().userId);
  const me = useSession();
  const [tab, setTab] = useState<Tab>('statement');
  const pnl = useQuery({
    queryKey: riskKeys.account(userId, 'pnl', 1),
    queryFn: async () => dataOr(await accountPnl(userId), null),
    enabled: Number.isFinite(userId),
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const summary = useQuery({
    queryKey: accountSummaryKey(userId),
    queryFn: async () => dataOr(await accountSummary(userId), null),
    enabled: Number.isFinite(userId),
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const account = summary.data?.account;
  const name = account?.user_name ?? pnl.data?.user_name ?? `Account #${userId}`;
  // The trail below the caller; each agent on it opens its place in the downline.
  const trail = (summary.data?.trail ?? []).filter((step) => step.user_id !== me?.user_id);
  return (
    <PageCard title={name} testId="account-page" actions={<Link className="btn btn-sm" to="/console/downline">Downline</Link>}>
      {account && (
        <header className="account-header" data-testid="account-header">
          <nav aria-label="Where in the tree">
            <ol className="console-crumbs" data-testid="account-trail">
              <li>
                <Link to="/console/downline">{me?.user_name}</Link>
              </li>
              {trail.map((step, index) =>
                index === trail.length - 1 ? (
                  <li key={step.user_id}>
                    <b>{step.user_name}</b>
                  </li>
                ) : (
                  <li key={step.user_id}>
                    <Link to={`/console/downline?under=${step.user_id}`}>{step.user_name}</Link>
                  </li>
                ),
              )}
            </ol>
          </nav>
          <p>
            {account.role === 'agent' ? 'Agent' : 'Client'}{' '}
            <span className={`status-chip${account.status === 'active' ? '' : ' locked'}`} data-testid="account-status">
              {STATUS_TEXT[account.status]}
            </span>
          </p>
          <AccountFigures user={account} />
          <dl className="account-figures small" data-testid="account-terms">
            <div>
              <dt>Credit reference</dt>
              <dd>{formatMoney(account.credit_reference)}</dd>
            </div>
            <div>
              <dt>Max stake</dt>
              <dd>{account.max_stake === null ? 'no cap' : formatMoney(account.max_stake)}</dd>
            </div>
            <div>
              <dt>Exposure limit</dt>
              <dd>{account.max_exposure === null ? 'none' : formatMoney(account.max_exposure)}</dd>
            </div>
            <div>
              <dt>Last log-in</dt>
              <dd>{account.last_login ? formatIstDateTime(account.last_login) : 'never'}</dd>
            </div>
          </dl>
        </header>
      )}
      {/* A bettor's own controls: an agent's account has none. */}
      {account?.role === 'client' && <SaferPanel userId={userId} />}
      <div className="chip-tabs" role="tablist" aria-label="Records">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={t.id === tab} className={t.id === tab ? 'active' : undefined} onClick={() => setTab(t.id)} data-testid={`account-tab-${t.id}`}>
            {t.label}
          </button>
        ))}
      </div>
      {tab === 'statement' && <StatementTab userId={userId} />}
      {tab === 'bets' && <BetsTab userId={userId} />}
      {tab === 'history' && <HistoryTab userId={userId} />}
      {tab === 'pnl' && (
        <QueryState isPending={pnl.isPending} error={pnl.error}>
          {pnl.data && (
            <>
              <div className="console-toolbar">
                <DownloadCsvButton path="console/account/pnl" params={{ user_id: userId }} />
              </div>
              <p data-testid="account-pnl-total">
                Total P&amp;L{pnl.data.role === 'agent' ? ' of the downline' : ''}: <Money amount={pnl.data.total} />
              </p>
              <div className="table-wrap">
                <table className="data-table stack-on-phone" data-testid="account-pnl-table">
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Match</th>
                      <th scope="col">Market</th>
                      <th scope="col" className="num">P&amp;L</th>
                    </tr>
                  </thead>
                  <tbody>
                    {pnl.data.rows.length === 0 ? (
                      <EmptyRow colSpan={4}>Nothing settled yet.</EmptyRow>
                    ) : (
                      pnl.data.rows.map((row) => (
                        <tr key={`${row.kind}-${row.market_id ?? ''}`} data-testid="account-pnl-row">
                          <td data-label="Date">{formatIstDateTime(row.date)}</td>
                          <td data-label="Match">{row.match_name ?? (row.kind === 'live_casino' ? 'World casino' : 'Casino')}</td>
                          <td data-label="Market">{row.market_name ?? ''}{row.kind === 'void' ? ' (void)' : ''}</td>
                          <td data-label="P&L" className="num"><Money amount={row.pnl} /></td>
                        </tr>
                      ))
                    )}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </QueryState>
      )}
    </PageCard>
  );
}

function Money({ amount }: { amount: number }) {
  const minor = toMinor(amount);
  return <span className={`pnl ${pnlClass(minor)}`}>{formatMinorMoney(minor)}</span>;
}

function StatementTab({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: riskKeys.account(userId, 'statement', page),
    queryFn: async () => dataOr(await accountStatement(userId, page), null),
    placeholderData: keepPreviousData,
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const data = query.data;
  return (
    <QueryState isPending={query.isPending} error={query.error}>
      <div className="console-toolbar">
        <DownloadCsvButton path="console/account/statement" params={{ user_id: userId }} />
      </div>
      <div className="table-wrap">
        <table className="data-table stack-on-phone" data-testid="account-statement">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Description</th>
              <th scope="col" className="num">Credit</th>
              <th scope="col" className="num">Debit</th>
              <th scope="col" className="num">Balance</th>
            </tr>
          </thead>
          <tbody>
            {!data || data.rows.length === 0 ? (
              <EmptyRow colSpan={5}>No lines yet.</EmptyRow>
            ) : (
              data.rows.map((row, index) => (
                <tr key={`${row.date}-${index}`} data-testid="account-statement-row">
                  <td data-label="Date">{formatIstDateTime(row.date)}</td>
                  <td data-label="Description">{row.description}{row.remark ? <div className="muted small">{row.remark}</div> : null}</td>
                  <td data-label="Credit" className="num">{row.credit ? formatMoney(row.credit) : ''}</td>
                  <td data-label="Debit" className="num">{row.debit ? formatMoney(row.debit) : ''}</td>
                  <td data-label="Balance" className="num">{formatMoney(row.balance)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {data && data.total > data.limit && <Pagination page={page} total={data.total} limit={data.limit || ACCOUNT_PAGE_LIMIT} onPage={setPage} />}
    </QueryState>
  );
}

function BetsTab({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: riskKeys.account(userId, 'bets', page),
    queryFn: async () => dataOr(await accountBets(userId, page), null),
    placeholderData: keepPreviousData,
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const data = query.data;
  const sports = (data?.rows ?? []).filter((row): row is SportsBet => 'side' in row);
  return (
    <QueryState isPending={query.isPending} error={query.error}>
      <div className="console-toolbar">
        <DownloadCsvButton path="console/account/bets" params={{ user_id: userId, type: 'sports' }} />
      </div>
      <div className="table-wrap">
        <table className="data-table stack-on-phone" data-testid="account-bets">
          <thead>
            <tr>
              <th scope="col">Match</th>
              <th scope="col">Market</th>
              <th scope="col">Selection</th>
              <th scope="col">Side</th>
              <th scope="col" className="num">Price</th>
              <th scope="col" className="num">Stake</th>
              <th scope="col" className="num">Matched</th>
              <th scope="col">Placed</th>
            </tr>
          </thead>
          <tbody>
            {sports.length === 0 ? (
              <EmptyRow colSpan={8}>No current bets.</EmptyRow>
            ) : (
              sports.map((bet) => (
                <tr key={bet.bet_id} data-testid="account-bet-row">
                  <td data-label="Match">{bet.match_name}</td>
                  <td data-label="Market">{bet.market_name}</td>
                  <td data-label="Selection">{bet.selection_name ?? (bet.line === null ? '' : `Line ${bet.line}`)}</td>
                  <td data-label="Side">{bet.side}</td>
                  <td data-label="Price" className="num">{bet.price}</td>
                  <td data-label="Stake" className="num">{formatMoney(bet.stake)}</td>
                  <td data-label="Matched" className="num">{formatMoney(bet.matched)}</td>
                  <td data-label="Placed">{formatIstDateTime(bet.date)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {data && data.total > data.limit && <Pagination page={page} total={data.total} limit={data.limit || ACCOUNT_PAGE_LIMIT} onPage={setPage} />}
    </QueryState>
  );
}

/** The account's settled and void bets, filtered by the date placed and by how each ended. */
function HistoryTab({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<BetHistoryFilter>({ from: '', to: '', outcome: '' });
  const [filter, setFilter] = useState<BetHistoryFilter>(draft);
  const query = useQuery({
    queryKey: [...riskKeys.account(userId, 'history', page), filter],
    queryFn: async () => dataOr(await accountBetHistory(userId, filter, page), null),
    placeholderData: keepPreviousData,
    refetchInterval: FIGURES_REFRESH_MS,
  });
  const data = query.data;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
    setPage(1);
  };
  return (
    <>
      <form className="console-toolbar" onSubmit={apply} data-testid="history-filters">
        <label>
          From <input type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} data-testid="history-from" />
        </label>
        <label>
          To <input type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} data-testid="history-to" />
        </label>
        <label>
          Result{' '}
          <select value={draft.outcome} onChange={(event) => setDraft({ ...draft, outcome: event.target.value as BetHistoryFilter['outcome'] })} data-testid="history-outcome">
            {OUTCOMES.map((o) => (
              <option key={o.label} value={o.value}>{o.label}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-sm" data-testid="history-apply">Show</button>
        <DownloadCsvButton path="console/account/betHistory" params={betHistoryParams(userId, filter)} />
      </form>
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="account-history">
            <thead>
              <tr>
                <th scope="col">Placed</th>
                <th scope="col">Match</th>
                <th scope="col">Market</th>
                <th scope="col">Selection</th>
                <th scope="col">Side</th>
                <th scope="col" className="num">Price</th>
                <th scope="col" className="num">Matched</th>
                <th scope="col" className="num">P&amp;L (+: they won)</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <EmptyRow colSpan={8}>No settled bets{filter.from || filter.to || filter.outcome ? ' match these filters' : ' yet'}.</EmptyRow>
              ) : (
                data.rows.map((bet) => (
                  <tr key={bet.bet_id} data-testid="account-history-row">
                    <td data-label="Placed">{formatIstDateTime(bet.date)}</td>
                    <td data-label="Match">{bet.match_name}</td>
                    <td data-label="Market">{bet.market_name}{bet.status === 'void' ? ' (void)' : ''}</td>
                    <td data-label="Selection">{bet.selection_name ?? (bet.line === null ? '' : `Line ${bet.line}`)}</td>
                    <td data-label="Side">{bet.side}</td>
                    <td data-label="Price" className="num">{bet.price}</td>
                    <td data-label="Matched" className="num">{formatMoney(bet.matched)}</td>
                    <td data-label="P&L" className="num"><Money amount={bet.pnl} /></td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && data.total > data.limit && <Pagination page={page} total={data.total} limit={data.limit || ACCOUNT_PAGE_LIMIT} onPage={setPage} />}
      </QueryState>
    </>
  );
}
