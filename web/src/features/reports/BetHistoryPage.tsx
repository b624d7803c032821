import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { betPrices, sideLabel } from '../../lib/bet-record';
import { formatMoney } from '../../lib/format';
import { getSports, type BetHistoryRow, type Row } from './api';
import { DateRangeFilter, defaultRange } from './DateRange';
import { ReportView, type Column } from './ReportView';

const STATUSES = [
  { value: '', label: 'All' },
  { value: 'settled', label: 'Settled' },
  { value: 'void', label: 'Void' },
  { value: 'lapsed', label: 'Lapsed' },
  { value: 'cancelled', label: 'Cancelled' },
];

const MARKET_TYPES = [
  { value: '', label: 'All' },
  { value: 'match_odds', label: 'Match Odds' },
  { value: 'bookmaker', label: 'Bookmaker' },
  { value: 'fancy', label: 'Fancy' },
  { value: 'win', label: 'Win' },
  { value: 'place', label: 'Place' },
];

const SIDES = [
  { value: '', label: 'All' },
  { value: 'back', label: 'Back' },
  { value: 'lay', label: 'Lay' },
];

/** The filters besides the dates, as the request names them ('' is every value). */
interface Filters {
  status: string;
  sport_id: string;
  market_type: string;
  side: string;
}

const ALL: Filters = { status: '', sport_id: '', market_type: '', side: '' };

/** How the bet closed, with the parts that lapsed or were cancelled beside it. */
function statusText(row: Row): string {
  const bet = row as unknown as BetHistoryRow;
  const word = STATUSES.find((s) => s.value === bet.status)?.label ?? bet.status;
  const parts = [
    bet.lapsed > 0 && bet.status !== 'lapsed' ? `lapsed ${formatMoney(bet.lapsed)}` : null,
    bet.cancelled > 0 && bet.status !== 'cancelled' ? `cancelled ${formatMoney(bet.cancelled)}` : null,
    bet.status === 'lapsed' ? formatMoney(bet.lapsed) : null,
    bet.status === 'cancelled' ? formatMoney(bet.cancelled) : null,
  ].filter(Boolean);
  return parts.length ? `${word} (${parts.join(', ')})` : word;
}

/** A figure that may not be known yet (a matched part awaiting its result): "-" then. */
function maybeMoney(value: number | null): string {
  return value === null ? '-' : formatMoney(value);
}

const COLUMNS: Column[] = [
  { label: 'Placed', keys: ['placed_at'], kind: 'date' },
  { label: 'Settled', keys: ['settled_at'], kind: 'date' },
  { label: 'Event', keys: ['match_name'] },
  { label: 'Market', keys: ['market_name'] },
  { label: 'Selection', keys: ['selection_name', 'market_name'] },
  { label: 'Type', keys: ['side'], render: (row) => sideLabel((row as unknown as BetHistoryRow).side) },
  {
    label: 'Price',
    keys: ['avg_price_matched', 'price'],
    render: (row) => {
      const bet = row as unknown as BetHistoryRow;
      const { asked, matched } = betPrices(bet, bet.market_type);
      return matched ?? asked;
    },
  },
  { label: 'Stake', keys: ['stake'], kind: 'money' },
  { label: 'Matched', keys: ['matched'], kind: 'money' },
  { label: 'Status', keys: ['status'], render: statusText },
  { label: 'P&L', keys: ['pnl'], kind: 'pnl', render: (row) => maybeMoney((row as unknown as BetHistoryRow).pnl) },
  { label: 'Commission', keys: ['commission'], kind: 'money', render: (row) => maybeMoney((row as unknown as BetHistoryRow).commission) },
  { label: 'Net', keys: ['net'], kind: 'pnl', render: (row) => maybeMoney((row as unknown as BetHistoryRow).net) },
];

function totalsCells(totals: Row) {
  const signed = (value: unknown) => {
    const amount = Number(value ?? 0);
    return <span className={amount > 0 ? 'pnl win' : amount < 0 ? 'pnl lose' : undefined}>{formatMoney(amount)}</span>;
  };
  const bets = Number(totals.bets ?? 0);
  return {
    Placed: `Total (${bets} ${bets === 1 ? 'bet' : 'bets'})`,
    Stake: formatMoney(Number(totals.stake ?? 0)),
    Matched: formatMoney(Number(totals.matched ?? 0)),
    'P&L': signed(totals.pnl),
    Commission: formatMoney(Number(totals.commission ?? 0)),
    Net: signed(totals.net),
  };
}

/**
 * Bet History (`report/betHistory`): the bettor's settled, void, lapsed and cancelled bets,
 * newest closed first, by the days they closed and the filters chosen, each with its average
 * matched price, what it won or lost, its share of the commission and the net; the totals are
 * every listed bet's, on every page.
 */
export function BetHistoryPage() {
  const [range, setRange] = useState(defaultRange);
  const [applied, setApplied] = useState<Filters>(ALL);
  const [draft, setDraft] = useState<Filters>(ALL);
  const sports = useQuery({ queryKey: ['report', 'sports'], queryFn: getSports, staleTime: 60_000 });
  const params = {
    ...range,
    ...Object.fromEntries(Object.entries(applied).filter(([, value]) => value !== '')),
  };
  const select = (field: keyof Filters, label: string, options: { value: string; label: string }[]) => (
    <label>
      {label}
      <select value={draft[field]} onChange={(e) => setDraft({ ...draft, [field]: e.target.value })} data-testid={`filter-${field.replace('_', '-')}`}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  const sportOptions = [{ value: '', label: 'All' }, ...(sports.data ?? []).map((s) => ({ value: String(s.sport_id), label: s.name }))];
  return (
    <ReportView
      title="Bet History"
      testId="bet-history-page"
      path="report/betHistory"
      params={params}
      download
      columns={COLUMNS}
      totalsRow={totalsCells}
      filters={
        <DateRangeFilter
          initial={range}
          onApply={(r) => {
            setRange(r);
            setApplied(draft);
          }}
          extra={
            <>
              {select('status', 'Status', STATUSES)}
              {select('sport_id', 'Sport', sportOptions)}
              {select('market_type', 'Market', MARKET_TYPES)}
              {select('side', 'Side', SIDES)}
            </>
          }
        />
      }
    />
  );
}
