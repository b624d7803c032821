import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { dataOr } from '../../api/client';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { DateRangeFilter, defaultRange, type DateRangeValue } from '../../features/reports/DateRange';
import { formatIstDateTime, formatMinorMoney, formatMoney } from '../../lib/format';
import { toMinor } from '../../lib/money';
import { useSession } from '../../lib/session';
import { EmptyRow } from '../TableParts';
import { partnershipParams, partnershipReport, reportKeys, type PartnershipReport, type PartnershipRow } from './api';
import { SettleCashDialog } from './SettleCashDialog';
import { byMatch, collectionLines, pnlTotals } from './sums';
import './reports.css';

const TABS = [
  { id: 'pnl', label: 'P&L by downline' },
  { id: 'collection', label: 'Collection' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** An agent drilled into: the report is asked for again with its id. */
interface Crumb {
  userId: number;
  name: string;
}

/** One match or one market the whole report is narrowed to, picked from its tables. */
interface Scope {
  matchId?: number;
  marketId?: number;
  label: string;
}

/**
 * `#/console/reports`: the partnership report of the caller, or of an agent of its downline
 * reached by clicking through the names (a breadcrumb leads back up), over every market or one
 * match or market picked from the by-match and by-market tables. Two views of the same answer:
 * the P&L split by partnership per direct child, and who owes whom after settlement.
 */
export function ReportsPage() {
  const me = useSession();
  const [range, setRange] = useState<DateRangeValue>(() => defaultRange());
  const [trail, setTrail] = useState<Crumb[]>([]);
  const [tab, setTab] = useState<Tab>('pnl');
  const [scope, setScope] = useState<Scope | null>(null);
  const userId = trail.at(-1)?.userId ?? null;
  const request = { userId, ...range, matchId: scope?.matchId, marketId: scope?.marketId };
  const query = useQuery({
    queryKey: reportKeys.partnership(request),
    queryFn: async () => dataOr(await partnershipReport(request), null),
    placeholderData: keepPreviousData,
  });
  const report = query.data;
  const drill = (row: PartnershipRow) => setTrail((t) => [...t, { userId: row.user_id, name: row.user_name }]);
  return (
    <PageCard
      title="Partnership report"
      testId="reports-page"
      actions={<DownloadCsvButton path="console/report/partnership" params={partnershipParams(request)} label="Download collection CSV" />}
    >
      <DateRangeFilter initial={range} onApply={setRange} />
      <nav aria-label="Breadcrumb" className="report-trail" data-testid="report-trail">
        {[{ userId: -1, name: me?.user_name ?? 'You' }, ...trail].map((crumb, index, all) =>
          index === all.length - 1 ? (
            <span key={crumb.userId} aria-current="page">{crumb.name}</span>
          ) : (
            <span key={crumb.userId}>
              <button type="button" className="btn-link" onClick={() => setTrail((t) => t.slice(0, index))} data-testid="report-crumb">
                {crumb.name}
              </button>
              <span aria-hidden="true"> › </span>
            </span>
          ),
        )}
      </nav>
      {scope && (
        <p className="report-scope" data-testid="report-scope">
          Only <b>{scope.label}</b>{' '}
          <button type="button" className="btn btn-sm" onClick={() => setScope(null)} data-testid="report-scope-clear">All matches and markets</button>
        </p>
      )}
      <div className="chip-tabs" role="tablist" aria-label="Report">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={t.id === tab} className={t.id === tab ? 'active' : undefined} onClick={() => setTab(t.id)} data-testid={`report-tab-${t.id}`}>
            {t.label}
          </button>
        ))}
      </div>
      <QueryState isPending={query.isPending} error={query.error}>
        {report && (
          <>
            <p className="muted small" data-testid="report-partnership">
              {report.user_name}'s partnership: {percent(report.partnership)}. Money is the house's result: positive when the clients lost.
            </p>
            {tab === 'pnl' ? (
              <PnlTab report={report} onDrill={drill} onScope={setScope} />
            ) : (
              // Cash is settled by the parent itself: on its own report, not one drilled into.
              <CollectionTab report={report} canSettle={trail.length === 0 && !scope} />
            )}
          </>
        )}
      </QueryState>
    </PageCard>
  );
}

function PnlTab({ report, onDrill, onScope }: { report: PartnershipReport; onDrill: (row: PartnershipRow) => void; onScope: (scope: Scope) => void }) {
  const totals = pnlTotals(report.rows);
  const matches = byMatch(report.markets);
  return (
    <>
      <div className="table-wrap">
        <table className="data-table stack-on-phone" data-testid="report-pnl-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className="num">Partnership</th>
              <th scope="col" className="num">House result</th>
              <th scope="col" className="num">Downline share</th>
              <th scope="col" className="num">Own share</th>
              <th scope="col" className="num">Upline share</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.length === 0 ? (
              <EmptyRow colSpan={6}>Nothing settled in these dates.</EmptyRow>
            ) : (
              report.rows.map((row) => (
                <tr key={row.user_id} data-testid="report-pnl-row">
                  <td data-label="Name"><ChildName row={row} onDrill={onDrill} /></td>
                  <td data-label="Partnership" className="num">{row.role === 'agent' ? percent(row.partnership) : ''}</td>
                  <td data-label="House result" className="num"><Money amount={row.house_result} /></td>
                  <td data-label="Downline share" className="num"><Money amount={row.downline_share} /></td>
                  <td data-label="Own share" className="num"><Money amount={row.own_share} /></td>
                  <td data-label="Upline share" className="num"><Money amount={row.upline_share} /></td>
                </tr>
              ))
            )}
          </tbody>
          {report.rows.length > 0 && (
            <tfoot>
              <tr className="report-total" data-testid="report-pnl-total">
                <th scope="row">Total</th>
                <td />
                <td data-label="House result" className="num"><MinorMoney minor={totals.houseResult} /></td>
                <td data-label="Downline share" className="num"><MinorMoney minor={totals.downlineShare} /></td>
                <td data-label="Own share" className="num"><MinorMoney minor={totals.ownShare} /></td>
                <td data-label="Upline share" className="num"><MinorMoney minor={totals.uplineShare} /></td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <ScopeTable
        title="By match"
        what="match"
        lines={matches.map((line) => ({
          key: line.matchId ?? 'casino',
          name: line.name,
          scope: line.matchId === null ? null : { matchId: line.matchId, label: line.name },
          houseMinor: line.houseResultMinor,
          ownMinor: line.ownShareMinor,
        }))}
        onScope={onScope}
      />
      <ScopeTable
        title="By market"
        what="market"
        lines={report.markets.map((market) => ({
          key: market.market_id,
          name: market.name,
          // The casino's rounds (-1) are no market to narrow to.
          scope: market.market_id < 0 ? null : { marketId: market.market_id, label: market.name },
          houseMinor: toMinor(market.house_result),
          ownMinor: toMinor(market.own_share),
        }))}
        onScope={onScope}
      />
    </>
  );
}

/** One line of the by-match or by-market table: its name narrows the report to it (`scope`). */
interface ScopeLine {
  key: string | number;
  name: string;
  scope: Scope | null;
  houseMinor: number;
  ownMinor: number;
}

/** The house's result and the account's own share per match or per market. */
function ScopeTable({ title, what, lines, onScope }: { title: string; what: 'match' | 'market'; lines: ScopeLine[]; onScope: (scope: Scope) => void }) {
  const label = what === 'match' ? 'Match' : 'Market';
  return (
    <>
      <h2 className="report-subtitle">{title}</h2>
      <div className="table-wrap">
        <table className="data-table stack-on-phone" data-testid={what === 'match' ? 'report-matches' : 'report-markets'}>
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <th scope="col" className="num">House result</th>
              <th scope="col" className="num">Own share</th>
            </tr>
          </thead>
          <tbody>
            {lines.length === 0 ? (
              <EmptyRow colSpan={3}>No {what} settled in these dates.</EmptyRow>
            ) : (
              lines.map((line) => (
                <tr key={line.key} data-testid={`report-${what}-row`}>
                  <td data-label={label}>
                    {line.scope === null ? line.name : (
                      <button type="button" className="btn-link" onClick={() => line.scope && onScope(line.scope)} data-testid={`report-${what}-scope`}>
                        {line.name}
                      </button>
                    )}
                  </td>
                  <td data-label="House result" className="num"><MinorMoney minor={line.houseMinor} /></td>
                  <td data-label="Own share" className="num"><MinorMoney minor={line.ownMinor} /></td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}

function CollectionTab({ report, canSettle }: { report: PartnershipReport; canSettle: boolean }) {
  const lines = collectionLines(report);
  const [settling, setSettling] = useState<PartnershipRow | null>(null);
  const columns = canSettle ? 6 : 5;
  return (
    <>
      <div className="table-wrap">
        <table className="data-table stack-on-phone" data-testid="report-collection">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className="num">To receive</th>
              <th scope="col" className="num">To pay</th>
              <th scope="col" className="num">Cash settled</th>
              <th scope="col" className="num">Remaining</th>
              {canSettle && <th scope="col">Cash</th>}
            </tr>
          </thead>
          <tbody>
            {lines.rows.length === 0 ? (
              <EmptyRow colSpan={columns}>Nobody owes anything for these dates.</EmptyRow>
            ) : (
              lines.rows.map(({ row, receiveMinor, payMinor }) => (
                <tr key={row.user_id} data-testid="report-collection-row">
                  <td data-label="Name">{row.user_name}</td>
                  <td data-label="To receive" className="num">{receiveMinor ? formatMinorMoney(receiveMinor) : ''}</td>
                  <td data-label="To pay" className="num">{payMinor ? formatMinorMoney(payMinor) : ''}</td>
                  <td data-label="Cash settled" className="num" data-testid="report-collection-settled">
                    <SettledText row={row} />
                  </td>
                  <td data-label="Remaining" className="num" data-testid="report-collection-remaining">
                    {formatMoney(row.remaining)}
                  </td>
                  {canSettle && (
                    <td>
                      <button type="button" className="btn btn-sm" onClick={() => setSettling(row)} data-testid="report-settle">
                        Settle
                      </button>
                    </td>
                  )}
                </tr>
              ))
            )}
          </tbody>
          <tfoot>
            <tr className="report-total" data-testid="report-collection-total">
              <th scope="row">Total</th>
              <td data-label="To receive" className="num">{formatMinorMoney(lines.receiveMinor)}</td>
              <td data-label="To pay" className="num">{formatMinorMoney(lines.payMinor)}</td>
              <td data-label="Cash settled" className="num">{formatMoney(report.settled_total)}</td>
              <td data-label="Remaining" className="num" data-testid="report-remaining-total">{formatMoney(report.remaining_total)}</td>
              {canSettle && <td />}
            </tr>
          </tfoot>
        </table>
      </div>
      {settling && <SettleCashDialog row={settling} onClose={() => setSettling(null)} />}
      <dl className="report-summary" data-testid="report-collection-summary">
        <div data-testid="report-collect-total">
          <dt>Your downline owes you in all</dt>
          <dd>{formatMoney(report.collect_total)}</dd>
        </div>
        <div data-testid="report-pay-upline">
          <dt>You pay your upline</dt>
          <dd>{formatMoney(report.pay_upline)}</dd>
        </div>
        <div data-testid="report-upline-settled">
          <dt>Cash settled with your upline</dt>
          <dd>{formatMoney(report.upline_settled)}, remaining {formatMoney(report.upline_remaining)}</dd>
        </div>
        <div data-testid="report-own-share">
          <dt>Your share</dt>
          <dd>{formatMoney(report.own_share)}</dd>
        </div>
        <div data-testid="report-balance" className={lines.balanced ? undefined : 'report-unbalanced'}>
          <dt>Balance (owed to you − you pay your upline − your share)</dt>
          <dd className={lines.balanced ? undefined : 'pnl lose'}>{formatMinorMoney(lines.balanceMinor)}</dd>
        </div>
      </dl>
      {!lines.balanced && (
        <p role="alert" className="error-message" data-testid="report-unbalanced">
          These figures do not balance; tell the operator's support before settling up.
        </p>
      )}
    </>
  );
}

/** "₹700.00 on 27/11/2026 14:05:09" (received; negative: paid), or nothing. */
function SettledText({ row }: { row: PartnershipRow }) {
  if (toMinor(row.settled) === 0 && !row.last_settled_at) return null;
  return (
    <>
      {formatMoney(row.settled)}
      {row.last_settled_at && <span className="muted small"> on {formatIstDateTime(row.last_settled_at)}</span>}
    </>
  );
}

/** An agent's name opens the same report for that agent; a client's opens its account. */
function ChildName({ row, onDrill }: { row: PartnershipRow; onDrill: (row: PartnershipRow) => void }) {
  if (row.role === 'agent') {
    return (
      <button type="button" className="btn-link" onClick={() => onDrill(row)} data-testid="report-drill">
        {row.user_name}
      </button>
    );
  }
  return <Link to={`/console/account/${row.user_id}`}>{row.user_name}</Link>;
}

function Money({ amount }: { amount: number }) {
  return <MinorMoney minor={toMinor(amount)} />;
}

function MinorMoney({ minor }: { minor: number }) {
  return <span className={`pnl ${minor > 0 ? 'win' : minor < 0 ? 'lose' : ''}`}>{formatMinorMoney(minor)}</span>;
}

/** 40 → "40%", 12.5 → "12.5%". */
function percent(value: number): string {
  return `${Number(value.toFixed(2))}%`;
}
