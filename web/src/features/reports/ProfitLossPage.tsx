import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoney } from '../../lib/format';
import type { ProfitLossRow, Row } from './api';
import { DateRangeFilter, defaultRange } from './DateRange';
import { ReportView, type Column, type ColumnId } from './ReportView';
import { SettledBetsModal } from './SettledBetsModal';

/** Where the table is in the tree: every sport, one sport's events, or one event's markets. */
interface Trail {
  sport?: { key: string; name: string };
  event?: { key: string; name: string };
}

/** The casino's group: its markets are rounds, each with a page of its own. */
const CASINO_GROUP = 'casino';

/** The figures every level shows, after its name. */
const FIGURES: Column[] = [
  { label: 'pnl', keys: ['pnl'], kind: 'pnl' },
  { label: 'commission', keys: ['commission'], kind: 'money' },
  { label: 'net', keys: ['net'], kind: 'pnl' },
];

/** The first column's label at each level. */
const NAME_LABEL = { sport: 'sport', event: 'event', market: 'market' } as const satisfies Record<string, ColumnId>;

/** The totals' figures by column label, coloured as the rows' are; `label` names the row. */
function totalsCells(nameLabel: ColumnId, label: string) {
  return (totals: Row) => {
    const signed = (value: unknown) => {
      const amount = Number(value ?? 0);
      return <span className={amount > 0 ? 'pnl win' : amount < 0 ? 'pnl lose' : undefined}>{formatMoney(amount)}</span>;
    };
    return {
      [nameLabel]: label,
      markets: String(Number(totals.markets ?? 0)),
      pnl: signed(totals.pnl),
      commission: formatMoney(Number(totals.commission ?? 0)),
      net: signed(totals.net),
    };
  };
}

/**
 * Profit & Loss (`report/profitLoss`): what the bettor's settled markets and casino rounds won
 * or lost over the chosen days, before commission, the commission and the net, by sport; a
 * sport opens its matches, a match its markets, and a market the bets it settled. Each level
 * ends with its total (the grand total at the top), which meets the account statement's betting
 * lines over the same days.
 */
export function ProfitLossPage() {
  const { t } = useTranslation('reports');
  const [range, setRange] = useState(defaultRange);
  const [trail, setTrail] = useState<Trail>({});
  const [settled, setSettled] = useState<{ marketId: number; title: string } | null>(null);
  const level = trail.event ? 'market' : trail.sport ? 'event' : 'sport';
  const params = { ...range, ...(trail.sport ? { sport: trail.sport.key } : {}), ...(trail.event ? { event: trail.event.key } : {}) };

  const nameOf = (row: Row): string => {
    const pnl = row as unknown as ProfitLossRow;
    return (level === 'sport' ? pnl.sport_name : level === 'event' ? pnl.event_name : pnl.market_name) ?? '';
  };
  const open = (row: Row) => {
    const pnl = row as unknown as ProfitLossRow;
    const name = nameOf(row);
    if (level === 'sport') return setTrail({ sport: { key: pnl.sport, name } });
    if (level === 'event' && pnl.event) return setTrail({ sport: trail.sport, event: { key: pnl.event, name } });
    if (pnl.market_id !== null) setSettled({ marketId: pnl.market_id, title: `${pnl.event_name ?? ''} / ${name}` });
  };
  // A sport opens its events and an event its markets; a sports market opens its bets and a
  // casino round its own page. A provider's round has nothing more to open here.
  const nameCell = (row: Row) => {
    const pnl = row as unknown as ProfitLossRow;
    const name = nameOf(row);
    if (level === 'market' && pnl.market_id === null) {
      return pnl.sport === CASINO_GROUP && pnl.market ? (
        <Link to={`/casino/round/${encodeURIComponent(pnl.market)}`} data-testid="pl-open">
          {name}
        </Link>
      ) : (
        name
      );
    }
    return (
      <button type="button" className="btn-link" onClick={() => open(row)} data-testid="pl-open">
        {name}
      </button>
    );
  };
  const nameLabel = NAME_LABEL[level];
  const columns: Column[] =
    level === 'market'
      ? [{ label: nameLabel, keys: [], render: nameCell }, { label: 'settled', keys: ['date'], kind: 'date' }, ...FIGURES]
      : [{ label: nameLabel, keys: [], render: nameCell }, { label: 'markets', keys: ['markets'] }, ...FIGURES];
  const totalLabel = trail.event ? t('totals.of', { name: trail.event.name }) : trail.sport ? t('totals.of', { name: trail.sport.name }) : t('totals.total');

  return (
    <>
      {settled && <SettledBetsModal marketId={settled.marketId} title={settled.title} onClose={() => setSettled(null)} />}
      <ReportView
        title={t('titles.profitLoss')}
        testId="profit-loss-page"
        path="report/profitLoss"
        params={params}
        download
        columns={columns}
        totalsRow={totalsCells(nameLabel, totalLabel)}
        filters={
          <DateRangeFilter
            initial={range}
            onApply={(r) => {
              setRange(r);
              setTrail({});
            }}
          />
        }
        above={
          <nav className="report-trail" aria-label={t('profitLoss.levels')} data-testid="pl-trail">
            {trail.sport ? (
              <button type="button" className="btn-link" onClick={() => setTrail({})} data-testid="pl-trail-all">
                {t('profitLoss.allSports')}
              </button>
            ) : (
              <span aria-current="page">{t('profitLoss.allSports')}</span>
            )}
            {trail.sport && <span aria-hidden="true">›</span>}
            {trail.sport &&
              (trail.event ? (
                <button type="button" className="btn-link" onClick={() => setTrail({ sport: trail.sport })} data-testid="pl-trail-sport">
                  {trail.sport.name}
                </button>
              ) : (
                <span aria-current="page">{trail.sport.name}</span>
              ))}
            {trail.event && <span aria-hidden="true">›</span>}
            {trail.event && <span aria-current="page">{trail.event.name}</span>}
          </nav>
        }
      />
    </>
  );
}
