// The pieces of a casino table page: the felt with the cards, the markets, the caller's bets,
// the last results and the rules.
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlayingCard } from '../../components/PlayingCard';
import { formatIstDateTime, formatMinorMoney, formatMoney } from '../../lib/format';
import { betStatusLabel, dealtSeats, familyTitle, isMarketSuspended, marketFamilies, resultTone, shortWinner, tableSeats, wonMinor, type TableSeat } from './table';
import type { CasinoBet, CasinoMarket, LastResult, RoundState } from './table-api';

/** Families with more markets than this (roulette's numbers, matka's pannas) start folded. */
const OPEN_FAMILY_MAX = 40;

type FeltState = Pick<RoundState, 'game' | 'game_code' | 'cards' | 'result' | 'status' | 'winner'> & Partial<Pick<RoundState, 'dealing' | 'my_bets'>>;

/**
 * The cards on the table. Before the deal each seat's cards face down (the open ones shown);
 * while dealing, the cards dealt so far, `dealElapsedMs` into the deal, each turning up as it
 * comes; with the result, the hands, the winner's seat marked, and what the caller won.
 */
export function TableFelt({ state, dealElapsedMs = null }: { state: FeltState; dealElapsedMs?: number | null }) {
  const { t } = useTranslation('casino');
  const dealing = state.status === 'dealing' && state.dealing && dealElapsedMs !== null;
  const seats = dealing && state.dealing ? dealtSeats(state.dealing, dealElapsedMs) : tableSeats(state);
  const showWinner = state.status === 'result' && state.winner;
  const won = showWinner ? wonMinor(state.my_bets ?? []) : 0;
  return (
    <div className={`casino-felt${dealing ? ' dealing' : ''}`} data-testid="casino-felt">
      {seats.length === 0 && <p className="casino-felt-empty">{t('felt.opensShortly')}</p>}
      <div className="casino-seats">
        {seats.map((seat) => (
          <Seat key={seat.name} seat={seat} winner={Boolean(showWinner) && seat.name === state.winner} pending={Boolean(dealing)} />
        ))}
      </div>
      {showWinner && (
        <div className="casino-result-banner" role="status">
          <p className="casino-winner" data-testid="casino-winner">
            <Trans t={t} i18nKey="felt.winner" values={{ winner: state.winner }} components={[<b key="winner" />]} />
          </p>
          {won > 0 && (
            <p className="casino-you-won" data-testid="casino-you-won">
              {t('felt.youWon', { amount: formatMinorMoney(won) })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** One position; while dealing (`pending`) a seat without a card yet waits with an empty place. */
function Seat({ seat, winner, pending }: { seat: TableSeat; winner: boolean; pending: boolean }) {
  return (
    <div className={`casino-seat${winner ? ' winner' : ''}`} data-testid="casino-seat" data-seat={seat.name}>
      <span className="casino-seat-name">{seat.name}</span>
      {seat.cards.length > 0 && (
        <span className="card-row">
          {seat.cards.map((code, i) => (
            <span key={i} className={code === null ? undefined : 'dealt-card'} data-testid={code === null ? undefined : 'casino-dealt-card'}>
              <PlayingCard code={code ?? undefined} faceDown={code === null} size="md" />
            </span>
          ))}
        </span>
      )}
      {seat.description && <span className="casino-seat-description">{seat.description}</span>}
      {seat.cards.length === 0 && !seat.description && <SeatWaiting pending={pending} draw={Boolean(seat.draw)} />}
    </div>
  );
}

/** A seat with nothing to show yet: an empty place for its card, or the draw to come. */
function SeatWaiting({ pending, draw }: { pending: boolean; draw: boolean }) {
  const { t } = useTranslation('casino');
  if (!pending) return <span className="casino-seat-description muted">?</span>;
  if (draw) return <span className="casino-seat-drawing">{t('felt.drawing')}</span>;
  return <span className="casino-seat-waiting" aria-label={t('felt.waitingCard')} />;
}

/**
 * The markets, by family, each a button with its posted odds. While betting is open a market
 * can be picked for the slip; after the close one SUSPENDED band lies across the whole market
 * area (the names and odds stay readable under it), and with the result the winning ones are
 * marked.
 */
export function MarketBoard({
  state,
  bettingOpen,
  selected,
  onPick,
}: {
  state: Pick<RoundState, 'markets' | 'result'>;
  bettingOpen: boolean;
  selected: string | null;
  onPick: (market: CasinoMarket) => void;
}) {
  const { t } = useTranslation('casino');
  if (state.markets.length === 0) return <p className="empty-state">{t('markets.none')}</p>;
  const verdicts = state.result?.verdicts ?? {};
  const groups = marketFamilies(state.markets);
  const allSuspended = state.markets.every((m) => isMarketSuspended(m, bettingOpen));
  return (
    <div className={`casino-markets${allSuspended ? ' suspended' : ''}`} data-testid="casino-markets">
      {allSuspended && (
        <div className="casino-markets-suspended" data-testid="casino-market-suspended" role="status">
          {t('markets.suspended')}
        </div>
      )}
      <div className="casino-markets-body">
      {groups.map((group) => (
        <details key={group.family} className="casino-family" open={group.markets.length <= OPEN_FAMILY_MAX || group.markets.some((m) => m.code === selected)}>
          <summary>
            {familyTitle(group.family)} <span className="muted small">({group.markets.length})</span>
          </summary>
          <div className="casino-market-grid">
            {group.markets.map((market) => {
              const suspended = isMarketSuspended(market, bettingOpen);
              const verdict = verdicts[market.code]?.verdict;
              const won = verdict === 'won' || verdict === 'won_at';
              return (
                <button
                  key={market.code}
                  type="button"
                  className={`casino-market${market.code === selected ? ' selected' : ''}${suspended ? ' suspended' : ''}${won ? ' won' : ''}`}
                  data-testid={`casino-market-${market.code}`}
                  aria-pressed={market.code === selected}
                  disabled={suspended}
                  onClick={() => onPick(market)}
                >
                  <span className="casino-market-name">{market.name}</span>
                  <span className="casino-market-odds">{market.odds}</span>
                </button>
              );
            })}
          </div>
        </details>
      ))}
      </div>
    </div>
  );
}

/** The caller's bets in this round, with how each came out after the result. */
export function MyRoundBets({ bets }: { bets: CasinoBet[] }) {
  const { t } = useTranslation('casino');
  return (
    <section className="casino-panel" data-testid="casino-my-bets">
      <h2>{t('myBets.title')}</h2>
      {bets.length === 0 ? (
        <p className="empty-state">{t('myBets.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table casino-bets">
            <thead>
              <tr>
                <th>{t('myBets.market')}</th>
                <th>{t('myBets.odds')}</th>
                <th className="num">{t('myBets.stake')}</th>
                <th>{t('myBets.status')}</th>
                <th className="num">{t('myBets.return')}</th>
              </tr>
            </thead>
            <tbody>
              {bets.map((bet) => (
                <tr key={bet.bet_id} data-testid="casino-my-bet" className={`bet-${bet.status}`}>
                  <td>{bet.market_name}</td>
                  <td>{bet.odds}</td>
                  <td className="num">{formatMoney(bet.stake)}</td>
                  <td data-testid="casino-my-bet-status">{betStatusLabel(bet.status)}</td>
                  <td className="num" data-testid="casino-my-bet-payout">
                    {bet.payout === null || bet.payout === undefined ? '-' : formatMoney(bet.payout)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The last results, newest first, each chip coloured by its outcome and a link to the round's detail (seed and check). */
export function LastResults({ results }: { results: LastResult[] }) {
  const { t } = useTranslation('casino');
  const latest = results.slice(0, 10);
  return (
    <section className="casino-panel">
      <h2>{t('lastResults.title')}</h2>
      {latest.length === 0 ? (
        <p className="empty-state">{t('lastResults.none')}</p>
      ) : (
        <nav className="casino-last-results" aria-label={t('lastResults.title')} data-testid="casino-last-results">
          {latest.map((r) => (
            <Link
              key={r.round_id}
              to={`/casino/round/${encodeURIComponent(r.round_id)}`}
              className={`result-chip tone-${resultTone(r.winner)}`}
              title={t('lastResults.chipTitle', { round: r.round_id, winner: r.winner, date: formatIstDateTime(r.date) })}
              aria-label={t('lastResults.chipLabel', { round: r.round_id, winner: r.winner })}
              data-testid="casino-last-result"
            >
              {shortWinner(r.winner)}
            </Link>
          ))}
        </nav>
      )}
    </section>
  );
}

/** The game's rules, folded under the table. */
export function RulesPanel({ rules }: { rules: string[] | undefined }) {
  const { t } = useTranslation('casino');
  return (
    <details className="casino-panel casino-rules" data-testid="casino-rules">
      <summary>{t('rules.title')}</summary>
      {rules && rules.length > 0 ? (
        <ul>
          {rules.map((line) => (
            <li key={line}>{line}</li>
          ))}
          <li>{t('rules.oddsDecimal')}</li>
        </ul>
      ) : (
        <p className="empty-state">{t('rules.none')}</p>
      )}
    </details>
  );
}
