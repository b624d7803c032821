import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import type { BetSide } from './api';
import { MatchBoard } from './MatchBoard';
import type { Pick } from './selection';
import { useMatchBook } from './useMatchBook';
import type { StreamState } from './stream';

/**
 * A match with its markets, the bet slip and open bets, live. Serves /game-details/:sportId/:matchId,
 * /match/matchdetail/:matchId and /CM/MD/:matchId. A price tapped on a match list arrives as
 * `?market=…&selection=…&side=…&price=…` and opens the slip with that selection.
 */
export function MatchPage() {
  const matchId = Number(useParams().matchId);
  const [params] = useSearchParams();
  const { detail, connection } = useMatchBook(matchId);
  const match = detail.data?.match;
  const valid = Number.isFinite(matchId) && matchId > 0;
  // An unknown match is a 404 with the server's words.
  const notFound = detail.error instanceof ApiError && detail.error.httpStatus === 404 ? detail.error.message : null;

  return (
    <div className="page-stack" data-testid="game-details-page">
      <QueryState isPending={detail.isPending && valid && !notFound} error={notFound ? null : detail.error} isEmpty={!match} empty={<NotFound message={notFound} />}>
        {match && detail.data && (
          <>
            <div className="match-header" data-testid="match-header">
              <div>
                <h1 data-testid="match-title">{match.match_name || match.name}</h1>
                <p className="match-sub">
                  {match.sport_name}
                  {match.series_name ? ` · ${match.series_name}` : ''}
                </p>
              </div>
              <div className="match-when">
                {match.in_play ? <span className="badge in-play">In Play</span> : null}
                <span data-testid="match-date">{formatIstDateTime(match.open_date)}</span>
                <ConnectionBadge state={connection} />
              </div>
            </div>
            <MatchBoard key={match.match_id} matchId={match.match_id} markets={detail.data.markets} initialPick={pickFromParams(params)} />
          </>
        )}
      </QueryState>
    </div>
  );
}

/** The selection a match list sent along, if any. */
export function pickFromParams(params: URLSearchParams): Pick | undefined {
  const marketId = Number(params.get('market'));
  const side = params.get('side') as BetSide | null;
  if (!marketId || !side || !['back', 'lay', 'yes', 'no'].includes(side)) return undefined;
  const selectionId = Number(params.get('selection'));
  const price = Number(params.get('price'));
  return { marketId, side, selectionId: selectionId || undefined, price: price > 0 ? price : undefined };
}

export function ConnectionBadge({ state }: { state: StreamState }) {
  const label = state === 'live' ? 'Live' : state === 'polling' ? 'Reconnecting (updating every 2 s)' : state === 'connecting' ? 'Connecting…' : '';
  if (!label) return null;
  return (
    <span className={`badge connection ${state}`} data-testid="connection" data-state={state}>
      {label}
    </span>
  );
}

function NotFound({ message }: { message: string | null }) {
  return (
    <>
      {message ?? 'This match is not open.'} <Link to="/">Back to home</Link>
    </>
  );
}
