import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('casino');
  const roundId = useParams().roundId ?? '';
  const round = useQuery({
    queryKey: roundDetailKey(roundId),
    queryFn: () => getRoundDetail(roundId),
    // A round still running is asked again until its seed is out.
    refetchInterval: (query) => (query.state.data && !query.state.data.seed ? 5000 : false),
  });
  const detail = round.data;
  return (
    <PageCard title={t('round.title')} testId="casino-round-page">
      {round.isPending ? (
        <Spinner />
      ) : round.error || !detail ? (
        <div className="empty-state" data-testid="casino-round-missing">
          <p role="alert">
            {round.error instanceof ApiError && round.error.httpStatus === 404
              ? t('round.missing', { round: roundId })
              : round.error
                ? errorMessage(round.error)
                : t('round.missing', { round: roundId })}
          </p>
          <Link to="/casino/list" className="btn btn-primary">
            {t('round.back')}
          </Link>
        </div>
      ) : (
        <RoundView detail={detail} />
      )}
    </PageCard>
  );
}

function RoundView({ detail }: { detail: RoundDetail }) {
  const { t } = useTranslation('casino');
  const dealt = Boolean(detail.seed);
  return (
    <div className="casino-round">
      <dl className="summary">
        <dt>{t('round.game')}</dt>
        <dd>
          <Link to={`/casino/match/${detail.match_id}`}>{detail.title || detail.name || detail.game_code}</Link>{' '}
          <span className="muted small">({detail.game})</span>
        </dd>
        <dt>{t('round.round')}</dt>
        <dd data-testid="casino-round-id">{detail.round_id}</dd>
        <dt>{t('round.opened')}</dt>
        <dd>{formatIstDateTime(detail.opened_at)}</dd>
        <dt>{t('round.bettingClosed')}</dt>
        <dd>{formatIstDateTime(detail.close_at)}</dd>
        <dt>{t('round.settled')}</dt>
        <dd>{detail.settled_at ? formatIstDateTime(detail.settled_at) : t('round.notYet')}</dd>
        <dt>{t('round.commitment')}</dt>
        <dd>
          <code data-testid="round-commitment">{detail.commitment}</code>
        </dd>
        <dt>{t('round.seed')}</dt>
        <dd>
          {detail.seed ? (
            <code data-testid="round-seed">{detail.seed}</code>
          ) : (
            <span data-testid="round-seed-hidden">{t('round.seedHidden', { phase: t(`round.phase.${detail.phase}`) })}</span>
          )}
        </dd>
        {detail.winner && (
          <>
            <dt>{t('round.winner')}</dt>
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
        <h2>{t('round.checkTitle')}</h2>
        <FairnessSteps />
        {detail.seed ? (
          <RoundVerdict round={{ seed: detail.seed, commitment: detail.commitment, roundId: detail.round_id, game: detail.game, shown: parseDeal(detail.deal) }} />
        ) : (
          <p className="notice" data-testid="commitment-check" data-state="waiting">
            {t('round.waitingForSeed')}
          </p>
        )}
        {dealt && !detail.verified && (
          <p className="notice error" role="alert" data-testid="server-deal-check">
            {t('round.serverMismatch')}
          </p>
        )}
        <p className="small">
          <Link to={verifyPath({ game: detail.game, roundId: detail.round_id, seed: detail.seed ?? '', commitment: detail.commitment })} data-testid="verify-by-hand-link">
            {t('round.byHand')}
          </Link>{' '}
          {t('round.byHandNote')}
        </p>
      </section>
    </div>
  );
}

