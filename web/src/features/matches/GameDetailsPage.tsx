import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { getMatchDetail } from './api';

/**
 * A match: its header and the markets that exist. Prices, the bet slip and live updates come
 * with the markets issue. Serves /game-details/:sportId/:matchId and /match/matchdetail/:matchId.
 */
export function GameDetailsPage() {
  const params = useParams();
  const matchId = Number(params.matchId);
  const sportId = params.sportId ? Number(params.sportId) : undefined;
  const detail = useQuery({
    queryKey: ['matchDetail', matchId, sportId],
    queryFn: () => getMatchDetail(matchId, sportId),
    enabled: Number.isFinite(matchId),
  });
  const match = detail.data?.match;
  const markets = detail.data?.markets ?? [];

  return (
    <div className="page-stack" data-testid="game-details-page">
      <QueryState isPending={detail.isPending && Number.isFinite(matchId)} error={detail.error} isEmpty={!match} empty={<NotFound />}>
        {match && (
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
              </div>
            </div>
            <PageCard title="Markets">
              {markets.length > 0 ? (
                <ul className="market-list" data-testid="market-list">
                  {markets.map((market) => (
                    <li key={market.market_id}>
                      <b>{market.name}</b> <span className="muted">({market.type}, {market.status})</span>
                      {market.runners?.length ? <span className="muted"> — {market.runners.map((r) => r.name).join(', ')}</span> : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <div data-testid="markets-placeholder">
                  <p>Match Odds{match.has_bookmaker ? ', Bookmaker' : ''}{match.has_fancy ? ', Fancy' : ''}</p>
                  <p className="muted">Prices and betting for this match open soon.</p>
                </div>
              )}
            </PageCard>
          </>
        )}
      </QueryState>
    </div>
  );
}

function NotFound() {
  return (
    <>
      This match is not open. <Link to="/">Back to home</Link>
    </>
  );
}
