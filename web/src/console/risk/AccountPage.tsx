import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { dataOr } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime, formatMinorMoney, formatMoney } from '../../lib/format';
import { toMinor } from '../../lib/money';
import { EmptyRow } from '../TableParts';
import { accountBets, accountPnl, accountStatement, ACCOUNT_PAGE_LIMIT, riskKeys, type SportsBet } from './api';
import { pnlClass } from './position';
import './risk.css';

const TABS = [
  { id: 'statement', label: 'Statement' },
  { id: 'bets', label: 'Bets' },
  { id: 'pnl', label: 'P&L' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** `#/console/account/<userId>`: one downline account's statement, current bets and P&L. */
export function AccountPage() {
  const userId = Number(useParams().userId);
  const [tab, setTab] = useState<Tab>('statement');
  const pnl = useQuery({
    queryKey: riskKeys.account(userId, 'pnl', 1),
    queryFn: async () => dataOr(await accountPnl(userId), null),
    enabled: Number.isFinite(userId),
  });
  const name = pnl.data?.user_name ?? `Account #${userId}`;
  return (
    <PageCard title={name} testId="account-page" actions={<Link className="btn btn-sm" to="/console/downline">Downline</Link>}>
      <div className="chip-tabs" role="tablist" aria-label="Records">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={t.id === tab} className={t.id === tab ? 'active' : undefined} onClick={() => setTab(t.id)} data-testid={`account-tab-${t.id}`}>
            {t.label}
          </button>
        ))}
      </div>
      {tab === 'statement' && <StatementTab userId={userId} />}
      {tab === 'bets' && <BetsTab userId={userId} />}
      {tab === 'pnl' && (
        <QueryState isPending={pnl.isPending} error={pnl.error}>
          {pnl.data && (
            <>
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
  });
  const data = query.data;
  return (
    <QueryState isPending={query.isPending} error={query.error}>
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
  });
  const data = query.data;
  const sports = (data?.rows ?? []).filter((row): row is SportsBet => 'side' in row);
  return (
    <QueryState isPending={query.isPending} error={query.error}>
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
