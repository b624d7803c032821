import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardRow } from '../../components/PlayingCard';
import { betPrices, sideLabel, type BetSide } from '../../lib/bet-record';
import { istDateKey } from '../../lib/format';
import type { CurrentBetRow, ResultHand, Row } from './api';
import { DateRangeFilter, defaultRange } from './DateRange';
import { ReportView, type Column } from './ReportView';
import { SettledBetsModal } from './SettledBetsModal';

// Each type's words are reports:statementType.<value>.
const STATEMENT_TYPES = [
  'all',
  'deposit_withdraw',
  'sports',
  'casino',
  // Cash handed to or by the parent (console/collection/settle): its own book, no chips moved.
  'cash',
] as const;

export function AccountStatementPage() {
  const { t } = useTranslation('reports');
  const [range, setRange] = useState(defaultRange);
  const [type, setType] = useState('all');
  const [draftType, setDraftType] = useState('all');
  const [settled, setSettled] = useState<{ marketId: number; title: string } | null>(null);
  // A settlement line opens the bets it settled (report/settledBets).
  const description = (row: Row) => {
    const text = typeof row.description === 'string' ? row.description : '';
    if (typeof row.market_id !== 'number') return text;
    const marketId = row.market_id;
    return (
      <button type="button" className="btn-link" onClick={() => setSettled({ marketId, title: text })} data-testid="statement-bets-link">
        {text}
      </button>
    );
  };
  const columns: Column[] = [
    { label: 'date', keys: ['date', 'created_at'], kind: 'date' },
    { label: 'description', keys: ['description'], render: description },
    { label: 'credit', keys: ['credit'], kind: 'money' },
    { label: 'debit', keys: ['debit'], kind: 'money' },
    { label: 'balance', keys: ['balance'], kind: 'money' },
    { label: 'remark', keys: ['remark'] },
  ];
  return (
    <>
      {settled && <SettledBetsModal marketId={settled.marketId} title={settled.title} onClose={() => setSettled(null)} />}
      <ReportView
        title={t('titles.accountStatement')}
        testId="account-statement-page"
        path="report/accountStatement"
        params={{ ...range, type }}
        download
        columns={columns}
        filters={
          <DateRangeFilter
            initial={range}
            onApply={(r) => {
              setRange(r);
              setType(draftType);
            }}
            extra={
              <label>
                {t('columns.type')}
                <select value={draftType} onChange={(e) => setDraftType(e.target.value)} data-testid="filter-type">
                  {STATEMENT_TYPES.map((value) => (
                    <option key={value} value={value}>
                      {t(`statementType.${value}`)}
                    </option>
                  ))}
                </select>
              </label>
            }
          />
        }
      />
    </>
  );
}

export function PaymentStatementPage() {
  const { t } = useTranslation('reports');
  const columns: Column[] = [
    { label: 'date', keys: ['date', 'created_at'], kind: 'date' },
    { label: 'type', keys: ['type', 'kind'] },
    { label: 'amount', keys: ['amount'], kind: 'money' },
    { label: 'reference', keys: ['reference', 'account_number'] },
    { label: 'status', keys: ['status'] },
    { label: 'decided', keys: ['decided_at'], kind: 'date' },
    { label: 'remark', keys: ['remark'] },
  ];
  return <ReportView title={t('titles.paymentStatement')} testId="payment-statement-page" path="report/paymentStatement" params={{}} columns={columns} download />;
}

/** A casino round's id as a link to its detail page (seed, cards, the commitment check). */
function roundLink(row: Row) {
  const roundId = typeof row.round_id === 'string' ? row.round_id : '';
  return roundId ? (
    <Link to={`/casino/round/${encodeURIComponent(roundId)}`} data-testid="round-link">
      {roundId}
    </Link>
  ) : (
    ''
  );
}

/** Casino bets whose round has not settled (docs/api.md `report/currentBets {type: casino}`). */
const CASINO_BET_COLUMNS: Column[] = [
  { label: 'game', keys: ['game_name', 'game_code'] },
  { label: 'round', keys: ['round_id'], render: roundLink },
  { label: 'market', keys: ['market_name', 'market'] },
  { label: 'odds', keys: ['odds'] },
  { label: 'stake', keys: ['stake'], kind: 'money' },
  { label: 'liability', keys: ['liability'], kind: 'money' },
  { label: 'potentialProfit', keys: ['profit'], kind: 'money' },
  { label: 'status', keys: ['status'] },
  { label: 'placed', keys: ['date', 'created_at'], kind: 'date' },
];

/** A sports row's asked and matched prices as every list of bets shows them. */
function prices(row: Row) {
  const bet = row as unknown as CurrentBetRow;
  return betPrices(bet, bet.market_type);
}

export function CurrentBetPage() {
  const { t } = useTranslation('reports');
  const [type, setType] = useState<'sports' | 'casino'>('sports');
  const [status, setStatus] = useState<'matched' | 'unmatched'>('matched');
  const sportsColumns: Column[] = [
    { label: 'event', keys: ['match_name'] },
    { label: 'market', keys: ['market_name'] },
    { label: 'selection', keys: ['selection_name', 'market_name'] },
    { label: 'type', keys: ['side'], render: (row) => sideLabel(row.side as BetSide) },
    // The matched tab shows what the bet got on average beside what it asked.
    ...(status === 'matched'
      ? [{ label: 'matched' as const, keys: ['avg_price_matched'], render: (row: Row) => prices(row).matched ?? '-' }]
      : []),
    { label: 'asked', keys: ['price'], render: (row) => prices(row).asked },
    { label: status === 'matched' ? 'matchedStake' : 'unmatchedStake', keys: [status === 'matched' ? 'matched' : 'remaining'], kind: 'money' },
    { label: 'stake', keys: ['stake'], kind: 'money' },
    // What the part listed (matched or unmatched) risks and may win, worked out by the server.
    { label: 'liability', keys: ['liability'], kind: 'money' },
    { label: 'potentialProfit', keys: ['profit'], kind: 'money' },
    { label: 'placed', keys: ['date'], kind: 'date' },
  ];
  const columns = type === 'casino' ? CASINO_BET_COLUMNS : sportsColumns;
  return (
    <ReportView
      title={t('titles.currentBets')}
      testId="current-bet-page"
      path="report/currentBets"
      params={{ type, status }}
      download
      columns={columns}
      filters={
        <div className="filter-row">
          <label>
            {t('columns.type')}
            <select value={type} onChange={(e) => setType(e.target.value as 'sports' | 'casino')} data-testid="filter-bet-type">
              <option value="sports">{t('statementType.sports')}</option>
              <option value="casino">{t('statementType.casino')}</option>
            </select>
          </label>
          <span className="radio-group" role="radiogroup" aria-label={t('columns.status')}>
            {(['matched', 'unmatched'] as const).map((s) => (
              <label key={s}>
                <input type="radio" name="bet-status" checked={status === s} onChange={() => setStatus(s)} /> {s === 'matched' ? t('currentBets.matched') : t('currentBets.unmatched')}
              </label>
            ))}
          </span>
        </div>
      }
    />
  );
}

/** The casino games whose rounds have results (the sidebar's quick-launch games). */
const CASINO_GAMES = [
  ['teen20', 'TP T20'],
  ['teen', 'TP 1 DAY'],
  ['teen9', 'TP TEST'],
  ['dt6', 'DT 1 DAY'],
  ['teen2', 'TP 2 Card'],
  ['hilow', 'HILOW'],
  ['poker', 'POKER'],
  ['queen', 'QUEEN'],
  ['baccarat', 'BACCARAT'],
  ['aaa', 'AMAR AKBAR ANTHONEY'],
  ['btable', 'BOLLYWOOD'],
  ['trio', 'TRIO'],
  ['ab20', 'ANDAR BAHAR'],
  ['teenmuf', 'MUFLIS TP'],
  ['roulette', 'ROULETTE'],
  ['worli', 'WORLI MATAKA'],
] as const;

/**
 * A round's cards by position, as the table shows them: each hand's name, its cards and what
 * they make, the winner's hand marked. Without hands (a round before they were sent) the cards
 * show in dealing order.
 */
function RoundHands({ row }: { row: Row }) {
  const hands = Array.isArray(row.hands) ? (row.hands as ResultHand[]) : [];
  if (hands.length === 0) {
    return Array.isArray(row.cards) && row.cards.length > 0 ? <CardRow cards={row.cards.map(String)} size="sm" /> : typeof row.result === 'string' ? row.result : '';
  }
  return (
    <ul className="round-hands" data-testid="round-hands">
      {hands.map((hand, index) => (
        <li key={`${hand.name}-${index}`} className={hand.name === row.winner ? 'round-hand winner' : 'round-hand'} data-testid="round-hand">
          <span className="round-hand-name">{hand.name}</span>
          {hand.cards.length > 0 && <CardRow cards={hand.cards} size="sm" />}
          {hand.description && <span className="round-hand-description">{hand.description}</span>}
        </li>
      ))}
    </ul>
  );
}

export function CasinoResultPage() {
  const { t } = useTranslation('reports');
  const [applied, setApplied] = useState({ game_code: 'teen20', date: istDateKey() });
  const [game, setGame] = useState(applied.game_code);
  const [date, setDate] = useState(applied.date);
  const gameName = CASINO_GAMES.find(([code]) => code === applied.game_code)?.[1] ?? applied.game_code;
  const columns: Column[] = [
    { label: 'game', keys: ['game_name'], render: (row) => (typeof row.game_name === 'string' && row.game_name) || gameName },
    { label: 'date', keys: ['date', 'created_at'], kind: 'date' },
    { label: 'roundId', keys: ['round_id'], render: roundLink },
    { label: 'hands', keys: ['hands'], render: (row) => <RoundHands row={row} /> },
    { label: 'winner', keys: ['winner'] },
  ];
  return (
    <ReportView
      title={t('titles.casinoResult')}
      testId="casino-result-page"
      path="report/casinoResult"
      params={applied}
      columns={columns}
      filters={
        <form
          className="filter-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (date) setApplied({ game_code: game, date });
          }}
        >
          <label>
            {t('columns.date')}
            <input type="date" value={date} onChange={(e) => setDate(e.target.value)} data-testid="filter-date" />
          </label>
          <label>
            {t('columns.game')}
            <select value={game} onChange={(e) => setGame(e.target.value)} data-testid="filter-game">
              {CASINO_GAMES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-primary" disabled={!date} data-testid="filter-submit">
            {t('submit')}
          </button>
        </form>
      }
    />
  );
}

export function LiveCasinoBetsPage() {
  const { t } = useTranslation('reports');
  const [range, setRange] = useState(defaultRange);
  const columns: Column[] = [
    { label: 'date', keys: ['date', 'created_at'], kind: 'date' },
    { label: 'game', keys: ['game_name', 'game_code'] },
    { label: 'transaction', keys: ['transaction_id', 'round_id'] },
    { label: 'debit', keys: ['debit', 'amount'], kind: 'money' },
    { label: 'credit', keys: ['credit'], kind: 'money' },
    { label: 'status', keys: ['status'] },
  ];
  return (
    <ReportView
      title={t('titles.liveCasinoBets')}
      testId="live-casino-bets-page"
      path="report/liveCasinoBets"
      params={range}
      columns={columns}
      filters={<DateRangeFilter initial={range} onApply={setRange} />}
    />
  );
}
