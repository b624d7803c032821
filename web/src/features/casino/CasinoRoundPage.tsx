import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { Spinner } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { checkCommitment, type CommitmentCheck } from './fairness';
import { getRoundDetail, roundDetailKey, type RoundDetail } from './table-api';
import { TableFelt } from './TableParts';

/**
 * /casino/round/:roundId: one round, provably fair. Shows the commitment published when the
 * round opened, the seed revealed after the deal, the cards and the result, and checks in
 * this browser that SHA-256 of the seed's bytes is the commitment.
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
            <span data-testid="round-seed-hidden">The seed is revealed after the deal: this round is still {detail.phase}.</span>
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
      <section className="casino-panel">
        <h2>Fairness</h2>
        {detail.seed ? (
          <CommitmentVerdict seed={detail.seed} commitment={detail.commitment} />
        ) : (
          <p className="notice" data-testid="commitment-check">
            The commitment was published when the round opened; the seed is revealed after the deal, and this page then checks it.
          </p>
        )}
        <p className="small">
          The deal is a fixed function of the seed and the round id (HMAC-SHA256 stream, Fisher–Yates shuffle), so anyone can recompute it.
          {dealt && (detail.verified ? ' The server recomputed this deal from the seed and it matches the one dealt.' : ' The server could not match the recomputed deal to the one dealt.')}
        </p>
        <p className="small">With a copy of the database, this recomputes the round's deal and result from its seed:</p>
        <pre className="command" data-testid="verify-command">backlay casino verify --round {detail.round_id}</pre>
        <p className="small">Without one, from the figures above:</p>
        <pre className="command">
          backlay casino verify --seed {detail.seed ?? '<seed>'} --commitment {detail.commitment} --round-id {detail.round_id} --game {detail.game}
        </pre>
      </section>
    </div>
  );
}

/** SHA-256 of the seed's bytes, computed here with WebCrypto, against the commitment. */
function CommitmentVerdict({ seed, commitment }: { seed: string; commitment: string }) {
  const [check, setCheck] = useState<{ key: string; result: CommitmentCheck } | null>(null);
  const key = `${seed}/${commitment}`;
  useEffect(() => {
    let live = true;
    checkCommitment(seed, commitment).then(
      (result) => live && setCheck({ key, result }),
      () => live && setCheck({ key, result: { kind: 'unsupported' } }),
    );
    return () => {
      live = false;
    };
  }, [seed, commitment, key]);
  const result = check?.key === key ? check.result : null;
  if (!result) {
    return (
      <p className="notice" data-testid="commitment-check" data-state="checking">
        Checking the commitment…
      </p>
    );
  }
  switch (result.kind) {
    case 'match':
      return (
        <p className="notice success" data-testid="commitment-check" data-state="match">
          ✓ Commitment matches: SHA-256 of the revealed seed is the commitment published before the round.
        </p>
      );
    case 'mismatch':
      return (
        <div className="notice error" role="alert" data-testid="commitment-check" data-state="mismatch">
          <p>✗ Commitment does NOT match: SHA-256 of the revealed seed is</p>
          <code>{result.actual}</code>
          <p>but the commitment published before the round is</p>
          <code>{commitment}</code>
        </div>
      );
    case 'bad-seed':
      return (
        <p className="notice error" role="alert" data-testid="commitment-check" data-state="bad-seed">
          ✗ Commitment cannot match: {result.reason}
        </p>
      );
    case 'unsupported':
      return (
        <p className="notice" data-testid="commitment-check" data-state="unsupported">
          This browser cannot compute SHA-256 here (WebCrypto needs https or localhost). Check it with any SHA-256 tool over the seed's 32 bytes, or with{' '}
          <code>backlay casino verify</code>.
        </p>
      );
  }
}
