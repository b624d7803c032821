import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
import { betPrices, sideLabel } from '../../lib/bet-record';
import { formatMoney } from '../../lib/format';
import { getSports, type BetHistoryRow, type Row } from './api';
import { DateRangeFilter, defaultRange } from './DateRange';
import { ReportView, type Column } from './ReportView';

// The filters' choices: their words are reports:status.*, reports:marketType.* and common:side.*
// ('' is every value: reports:all).
const STATUSES = ['', 'settled', 'void', 'lapsed', 'cancelled'] as const;
const MARKET_TYPES = ['', 'match_odds', 'bookmaker', 'fancy', 'win', 'place'] as const;
const SIDES = ['', 'back', 'lay'] as const;

const statusWord = (status: string) =>
  (STATUSES as readonly string[]).includes(status) && status ? i18n.t(`reports:status.${status as Exclude<(typeof STATUSES)[number], ''>}`) : status;

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
  const word = statusWord(bet.status);
  const parts = [
    bet.lapsed > 0 && bet.status !== 'lapsed' ? i18n.t('reports:betHistory.lapsedPart', { amount: formatMoney(bet.lapsed) }) : null,
    bet.cancelled > 0 && bet.status !== 'cancelled' ? i18n.t('reports:betHistory.cancelledPart', { amount: formatMoney(bet.cancelled) }) : null,
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
  { label: 'placed', keys: ['placed_at'], kind: 'date' },
  { label: 'settled', keys: ['settled_at'], kind: 'date' },
  { label: 'event', keys: ['match_name'] },
  { label: 'market', keys: ['market_name'] },
  { label: 'selection', keys: ['selection_name', 'market_name'] },
  { label: 'type', keys: ['side'], render: (row) => sideLabel((row as unknown as BetHistoryRow).side) },
  {
    label: 'price',
    keys: ['avg_price_matched', 'price'],
    render: (row) => {
      const bet = row as unknown as BetHistoryRow;
      const { asked, matched } = betPrices(bet, bet.market_type);
      return matched ?? asked;
    },
  },
  { label: 'stake', keys: ['stake'], kind: 'money' },
  { label: 'matched', keys: ['matched'], kind: 'money' },
  { label: 'status', keys: ['status'], render: statusText },
  { label: 'pnl', keys: ['pnl'], kind: 'pnl', render: (row) => maybeMoney((row as unknown as BetHistoryRow).pnl) },
  { label: 'commission', keys: ['commission'], kind: 'money', render: (row) => maybeMoney((row as unknown as BetHistoryRow).commission) },
  { label: 'net', keys: ['net'], kind: 'pnl', render: (row) => maybeMoney((row as unknown as BetHistoryRow).net) },
];

function totalsCells(totals: Row) {
  const signed = (value: unknown) => {
    const amount = Number(value ?? 0);
    return <span className={amount > 0 ? 'pnl win' : amount < 0 ? 'pnl lose' : undefined}>{formatMoney(amount)}</span>;
  };
  const bets = Number(totals.bets ?? 0);
  return {
    placed: i18n.t('reports:totals.bets', { count: bets }),
    stake: formatMoney(Number(totals.stake ?? 0)),
    matched: formatMoney(Number(totals.matched ?? 0)),
    pnl: signed(totals.pnl),
    commission: formatMoney(Number(totals.commission ?? 0)),
    net: signed(totals.net),
  };
}

/**
 * Bet History (`report/betHistory`): the bettor's settled, void, lapsed and cancelled bets,
 * newest closed first, by the days they closed and the filters chosen, each with its average
 * matched price, what it won or lost, its share of the commission and the net; the totals are
 * every listed bet's, on every page.
 */
export function BetHistoryPage() {
  const { t } = useTranslation(['reports', 'common']);
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
  const sportOptions = [{ value: '', label: t('all') }, ...(sports.data ?? []).map((s) => ({ value: String(s.sport_id), label: s.name }))];
  return (
    <ReportView
      title={t('titles.betHistory')}
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
              {select('status', t('columns.status'), STATUSES.map((value) => ({ value, label: value ? t(`status.${value}`) : t('all') })))}
              {select('sport_id', t('columns.sport'), sportOptions)}
              {select('market_type', t('columns.market'), MARKET_TYPES.map((value) => ({ value, label: value ? t(`marketType.${value}`) : t('all') })))}
              {select('side', t('betHistory.side'), SIDES.map((value) => ({ value, label: value ? t(`common:side.${value}`) : t('all') })))}
            </>
          }
        />
      }
    />
  );
}
