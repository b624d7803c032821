import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import type { StreamState } from '../../api/live-stream';
import type { MarketBook } from '../../api/match-stream';
import { QueryState } from '../../components/QueryState';
import { ResultBanner } from '../../components/live-score/ResultBanner';
import { ScoreStrip } from '../../components/live-score/ScoreStrip';
import { hasEnded } from '../../components/live-score/score';
import { formatIstDateTime } from '../../lib/format';
import { usePageRulesTopic } from '../../lib/rules-topic';
import type { BetSide } from './api';
import { MatchBoard } from './MatchBoard';
import type { Pick } from './selection';
import { useMatchBook } from './useMatchBook';

/**
 * A match with its score, markets, the bet slip and open bets, live. The header says In-Play
 * only while the server says the match is being played, the start time before, and a result
 * banner once the match has ended. Serves /game-details/:sportId/:matchId,
 * /match/matchdetail/:matchId and /CM/MD/:matchId. A price tapped on a match list arrives as
 * `?market=…&selection=…&side=…&price=…` and opens the slip with that selection.
 */
export function MatchPage() {
  const { t } = useTranslation('betting');
  const matchId = Number(useParams().matchId);
  const [params] = useSearchParams();
  const { detail, connection } = useMatchBook(matchId);
  const match = detail.data?.match;
  const valid = Number.isFinite(matchId) && matchId > 0;
  // An unknown match is a 404 with the server's words.
  const notFound = detail.error instanceof ApiError && detail.error.httpStatus === 404 ? detail.error.message : null;
  const ended = match ? hasEnded(match, detail.data?.markets) : false;
  // The header's Rules open on this match's sport.
  usePageRulesTopic(match?.sport_id, match?.sport_name);

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
                {ended ? (
                  <span className="badge finished" data-testid="match-status">
                    {t('match.finished')}
                  </span>
                ) : match.in_play ? (
                  <span className="badge in-play" data-testid="match-status">
                    {t('match.inPlay')}
                  </span>
                ) : (
                  <span data-testid="match-date">{formatIstDateTime(match.open_date)}</span>
                )}
                <ConnectionBadge state={connection} />
              </div>
            </div>
            {ended && <ResultBanner result={match.result} />}
            {match.score && (match.in_play || ended) && <ScoreStrip score={match.score} matchName={match.match_name || match.name} ended={ended} />}
            <MatchBoard
              key={match.match_id}
              matchId={match.match_id}
              markets={withoutSettledFancies(detail.data.markets)}
              initialPick={pickFromParams(params)}
            />
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

/** A settled fancy line has left the match (the stream still reports its last state). */
export function withoutSettledFancies(markets: MarketBook[]): MarketBook[] {
  return markets.filter((m) => !(m.type === 'fancy' && (m.status === 'closed' || m.status === 'void')));
}

/**
 * The stream's state, in words only while it is down ("Reconnecting…": the page polls meanwhile).
 * A connected stream is not news: whether the match is live is the In-Play badge's business.
 */
export function ConnectionBadge({ state }: { state: StreamState }) {
  const { t } = useTranslation('betting');
  const down = state === 'polling';
  return (
    <span className={down ? 'badge connection polling' : 'connection-state'} data-testid="connection" data-state={state} role="status">
      {down ? t('match.reconnecting') : ''}
    </span>
  );
}

function NotFound({ message }: { message: string | null }) {
  const { t } = useTranslation('betting');
  return (
    <>
      {message ?? t('match.notOpen')} <Link to="/">{t('match.backHome')}</Link>
    </>
  );
}
