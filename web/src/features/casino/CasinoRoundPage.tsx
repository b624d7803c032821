import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { Spinner } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { parseDeal } from './fair-deal';
import { FairnessSteps, RoundVerdict, verifyPath } from './RoundCheck';
import { getRoundDetail, roundDetailKey, type RoundDetail } from './table-api';
import { TableFelt } from './TableParts';

/**
 * /casino/round/:roundId: one round, provably fair. Shows the commitment published when the
 * round opened, the seed revealed after the deal, the cards and the result; says how a player
 * checks a round, and checks this one in the browser: SHA-256 of the seed's bytes against the
 * commitment, and the deal recomputed from the seed and round id against the deal shown.
 */
export function CasinoRoundPage() {
  const roundId = useParams().roundId ?? '';
  const round = useQuery({
    queryKey: roundDetailKey(roundId),
    queryFn: () => getRoundDetail(roundId),
    // A round still running is asked again until its seed is out.
    refetchInterval: (query) => (query.state.data && !query.state.data.seed ? 5000 : false),
  });
  const detail = round.data;
  return (
    <PageCard title="Casino round" testId="casino-round-page">
      {round.isPending ? (
        <Spinner />
      ) : round.error || !detail ? (
        <div className="empty-state" data-testid="casino-round-missing">
          <p role="alert">
            {round.error instanceof ApiError && round.error.httpStatus === 404
              ? `There is no casino round ${roundId}.`
              : round.error
                ? errorMessage(round.error)
                : `There is no casino round ${roundId}.`}
          </p>
          <Link to="/casino/list" className="btn btn-primary">
            Back to the casino games
          </Link>
        </div>
      ) : (
        <RoundView detail={detail} />
      )}
    </PageCard>
  );
}

function RoundView({ detail }: { detail: RoundDetail }) {
  const dealt = Boolean(detail.seed);
  return (
    <div className="casino-round">
      <dl className="summary">
        <dt>Game</dt>
        <dd>
          <Link to={`/casino/match/${detail.match_id}`}>{detail.title || detail.name || detail.game_code}</Link>{' '}
          <span className="muted small">({detail.game})</span>
        </dd>
        <dt>Round</dt>
        <dd data-testid="casino-round-id">{detail.round_id}</dd>
        <dt>Opened</dt>
        <dd>{formatIstDateTime(detail.opened_at)}</dd>
        <dt>Betting closed</dt>
        <dd>{formatIstDateTime(detail.close_at)}</dd>
        <dt>Settled</dt>
        <dd>{detail.settled_at ? formatIstDateTime(detail.settled_at) : 'Not yet'}</dd>
        <dt>Commitment</dt>
        <dd>
          <code data-testid="round-commitment">{detail.commitment}</code>
        </dd>
        <dt>Seed</dt>
        <dd>
          {detail.seed ? (
            <code data-testid="round-seed">{detail.seed}</code>
          ) : (
            <span data-testid="round-seed-hidden">The seed is revealed with the result: this round is still {detail.phase}.</span>
          )}
        </dd>
        {detail.winner && (
          <>
            <dt>Winner</dt>
            <dd data-testid="round-winner">
              <b>{detail.winner}</b>
            </dd>
          </>
        )}
      </dl>
      {dealt && (
        <TableFelt state={{ game: detail.game, game_code: detail.game_code, cards: detail.cards, result: detail.result, status: 'result', winner: null }} />
      )}
      <section className="casino-panel" data-testid="round-fairness">
        <h2>Check this round yourself</h2>
        <FairnessSteps />
        {detail.seed ? (
          <RoundVerdict round={{ seed: detail.seed, commitment: detail.commitment, roundId: detail.round_id, game: detail.game, shown: parseDeal(detail.deal) }} />
        ) : (
          <p className="notice" data-testid="commitment-check" data-state="waiting">
            The commitment above was published when the round opened; the seed is revealed after the deal, and this page then checks the round.
          </p>
        )}
        {dealt && !detail.verified && (
          <p className="notice error" role="alert" data-testid="server-deal-check">
            The server could not match the deal recomputed from the seed with the one it stored when the round opened.
          </p>
        )}
        <p className="small">
          <Link to={verifyPath({ game: detail.game, roundId: detail.round_id, seed: detail.seed ?? '', commitment: detail.commitment })} data-testid="verify-by-hand-link">
            Check a round by hand
          </Link>{' '}
          — paste a seed and round id; it works without a connection once this site is loaded.
        </p>
      </section>
    </div>
  );
}

