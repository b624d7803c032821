import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { casinoGamesKey, findCasinoGame, getCasinoGames } from '../../api/casino-games';
import { errorMessage } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { Spinner } from '../../components/QueryState';
import { CasinoSlip } from './CasinoSlip';
import { shownStatus } from './table';
import type { TableNow } from './table-api';
import { LastResults, MarketBoard, MyRoundBets, RulesPanel, TableFelt } from './TableParts';
import { useBettingOpen, useDealElapsed, useNextRoundSeconds, useSecondsLeft } from './useBettingClock';
import { isNotFound, useCasinoTable } from './useCasinoTable';

/**
 * /casino/match/:matchId and /CM/MD/:matchId: a casino table, by the game's id or code. The
 * round is fetched again when the live stream announces a step (polled once a second while the
 * stream is down). A round reads: betting (a countdown), no more bets, dealing (the cards turn
 * up one by one), the result (held until the next round, with its own countdown). Every clock
 * runs on the local clock from the moment each answer arrived, so it reaches 0 when the server's
 * does, whatever the server's clock text says.
 */
export function CasinoMatchPage() {
  const { t } = useTranslation('casino');
  const idOrCode = useParams().matchId ?? '';
  const { table } = useCasinoTable(idOrCode);
  const state = table.data;

  if (isNotFound(table.error) || (table.isSuccess && !state)) {
    return (
      <PageCard title={t('table.title')} testId="casino-table">
        <div className="empty-state" data-testid="casino-not-found">
          <p>{table.error ? errorMessage(table.error) : t('table.notFound', { id: idOrCode })}</p>
          <Link to="/casino/list" className="btn btn-primary">
            {t('table.backToGames')}
          </Link>
        </div>
      </PageCard>
    );
  }
  if (!state) {
    return (
      <PageCard title={t('table.title')} testId="casino-table">
        {table.error ? (
          <p role="alert" className="error-message">
            {errorMessage(table.error)}
          </p>
        ) : (
          <Spinner />
        )}
      </PageCard>
    );
  }
  return <CasinoTable idOrCode={idOrCode} state={state} stale={Boolean(table.error)} />;
}

function CasinoTable({ idOrCode, state, stale }: { idOrCode: string; state: TableNow; stale: boolean }) {
  const { t } = useTranslation('casino');
  const bettingOpen = useBettingOpen(state);
  const seconds = useSecondsLeft(state);
  const nextRoundSeconds = useNextRoundSeconds(state);
  const dealElapsedMs = useDealElapsed(state);
  const status = shownStatus(state, bettingOpen);
  const games = useQuery({ queryKey: casinoGamesKey(), queryFn: () => getCasinoGames(), staleTime: 5 * 60_000 });
  const game = findCasinoGame(games.data, String(state.match_id)) ?? findCasinoGame(games.data, state.game_code);
  // The slip belongs to one round: a new round closes it (the stake typed stays for the next pick).
  const [pick, setPick] = useState<{ roundId: string; code: string } | null>(null);
  const [stakeText, setStakeText] = useState('');
  const picked = pick && pick.roundId === state.round_id ? state.markets.find((m) => m.code === pick.code) : undefined;

  return (
    <PageCard
      title={state.title || state.name}
      testId="casino-table"
      actions={
        <span className="casino-round-meta">
          {t('table.round')} <span data-testid="casino-round-id">{state.round_id ?? '-'}</span>
        </span>
      }
    >
      <div className="casino-layout">
        <div className="casino-main">
          <div className="casino-clock" aria-live="polite">
            <span className={`casino-status ${status}`} data-testid="casino-status">
              {t(`table.status.${status}`)}
            </span>
            <ClockText status={status} game={state.game} seconds={seconds} nextRoundSeconds={nextRoundSeconds} />
            {stale && <span className="badge connection polling">{t('table.reconnecting')}</span>}
          </div>
          <TableFelt state={{ ...state, status }} dealElapsedMs={dealElapsedMs} />
          {state.commitment && (
            <p className="casino-commitment small">
              <span className="muted">{t('table.commitment')}</span>
              <code data-testid="casino-commitment">{state.commitment}</code>
              {state.round_id && (
                <>
                  {' '}
                  <Link to={`/casino/round/${encodeURIComponent(state.round_id)}`}>{t('table.verify')}</Link>
                </>
              )}
            </p>
          )}
          <MarketBoard
            state={state}
            bettingOpen={bettingOpen}
            selected={picked?.code ?? null}
            onPick={(market) => state.round_id && setPick({ roundId: state.round_id, code: market.code })}
          />
          <LastResults results={state.last_results} />
          <RulesPanel rules={game?.rules} />
        </div>
        <aside className="casino-side">
          {picked && state.round_id ? (
            <CasinoSlip
              tableKey={idOrCode}
              roundId={state.round_id}
              market={picked}
              bettingOpen={bettingOpen}
              stakeText={stakeText}
              onStakeText={setStakeText}
              onClose={() => setPick(null)}
            />
          ) : (
            <section className="casino-panel">
              <h2>{t('table.slipTitle')}</h2>
              <p className="empty-state">{bettingOpen ? t('table.pickMarket') : t('table.opensNextRound')}</p>
            </section>
          )}
          <MyRoundBets bets={state.my_bets} />
        </aside>
      </div>
    </PageCard>
  );
}

/** What the clock says while a game without cards draws its result (by rules code): keys of `casino:table.clock`. */
const DEALING_WORDS: Record<string, 'spinning' | 'drawing'> = { roulette: 'spinning', worli: 'drawing' };

/** What the table's clock says: a countdown only while there is something to count down to. */
function ClockText({ status, game, seconds, nextRoundSeconds }: { status: TableNow['status']; game: string; seconds: number; nextRoundSeconds: number }) {
  const { t } = useTranslation('casino');
  switch (status) {
    case 'betting':
      return (
        <span className="casino-countdown-box">
          <Trans t={t} i18nKey="table.clock.closesIn" values={{ seconds }} components={[<b key="seconds" className="casino-countdown" data-testid="casino-countdown" />]} />
        </span>
      );
    case 'closed':
      return <span className="casino-countdown-box" data-testid="casino-clock-text">{t('table.clock.noMoreBets')}</span>;
    case 'dealing':
      return (
        <span className="casino-countdown-box" data-testid="casino-clock-text">
          {t(`table.clock.${DEALING_WORDS[game] ?? 'dealing'}`)}
        </span>
      );
    case 'result':
      return nextRoundSeconds > 0 ? (
        <span className="casino-countdown-box" data-testid="casino-clock-text">
          <Trans t={t} i18nKey="table.clock.nextRoundIn" values={{ seconds: nextRoundSeconds }} components={[<b key="seconds" className="casino-countdown" />]} />
        </span>
      ) : (
        <span className="casino-countdown-box" data-testid="casino-clock-text">{t('table.clock.opensShortly')}</span>
      );
    default:
      return <span className="casino-countdown-box" data-testid="casino-clock-text">{t('table.clock.opensShortly')}</span>;
  }
}
