import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { ResultBanner } from '../../components/live-score/ResultBanner';
import { ScoreStrip } from '../../components/live-score/ScoreStrip';
import { hasEnded } from '../../components/live-score/score';
import { i18n } from '../../i18n';
import { formatIstDateTime } from '../../lib/format';
import { usePageRulesTopic } from '../../lib/rules-topic';
import { MatchBoard } from './MatchBoard';
import { ConnectionBadge } from './MatchPage';
import { useMatchBook } from './useMatchBook';

/**
 * /horse-racing/:matchId/:date: a race card. The win market (exchange prices) and the place
 * market, each runner with its draw, jockey and trainer as far as the feed or the operator gave
 * them, with the same slip and open bets as a match, and a countdown to the off; the race
 * turns in play at the off, and once run the card shows the result and the placings the server
 * holds.
 */
export function RaceCardPage() {
  const { t } = useTranslation('betting');
  const { matchId, date } = useParams();
  const id = Number(matchId);
  const { detail, connection } = useMatchBook(id);
  const race = detail.data?.match;
  const unknown = detail.error instanceof ApiError && detail.error.httpStatus === 404;
  const markets = (detail.data?.markets ?? []).filter((m) => m.type === 'win' || m.type === 'place' || m.type === 'match_odds');
  const ended = race ? hasEnded(race, detail.data?.markets) : false;
  // The header's Rules open on racing's.
  usePageRulesTopic(race?.sport_id, race?.sport_name);
  return (
    <PageCard title={race ? race.match_name || race.name : t('race.title')} testId="race-page" actions={<ConnectionBadge state={connection} />}>
      <QueryState isPending={detail.isPending && Number.isFinite(id) && !unknown} error={unknown ? null : detail.error}>
        {race ? (
          <>
            <p className="race-info" data-testid="race-info">
              {race.sport_name}
              {race.series_name ? ` · ${race.series_name}` : ''} · {t('race.off', { time: formatIstDateTime(race.open_date) })}
              {race.in_play && !ended ? (
                <span className="badge in-play" data-testid="match-status">
                  {t('match.inPlay')}
                </span>
              ) : null}
              {!race.in_play && !ended ? <OffCountdown off={race.open_date} /> : null}
            </p>
            {ended && <ResultBanner result={race.result} />}
            {race.score?.sport === 'race' && <ScoreStrip score={race.score} matchName={race.match_name || race.name} />}
            <MatchBoard
              key={race.match_id}
              matchId={race.match_id}
              markets={markets}
              runnerCards={detail.data?.runner_cards}
              empty={
                <p className="empty-state" data-testid="race-no-markets">
                  {t('race.noMarkets')}
                </p>
              }
            />
          </>
        ) : (
          <p className="empty-state">
            {t('race.notFound', { id: matchId, date })} <Link to="/horse-racing">{t('race.seeToday')}</Link>
          </p>
        )}
      </QueryState>
    </PageCard>
  );
}

/** "1h 05m", "4m 09s", "45s": the time left to the off. */
export function countdownText(leftMs: number): string {
  const seconds = Math.max(0, Math.ceil(leftMs / 1000));
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return i18n.t('betting:race.hoursMinutes', { h, m: two(m) });
  if (m > 0) return i18n.t('betting:race.minutesSeconds', { m, s: two(s) });
  return i18n.t('betting:race.seconds', { s });
}

/** The time left to the off, ticking each second; none once the off time has come. */
function OffCountdown({ off }: { off: string }) {
  const { t } = useTranslation('betting');
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const leftMs = Date.parse(off) - nowMs;
  if (!(leftMs > 0)) return null;
  return (
    <span className="badge countdown" data-testid="race-countdown" role="timer">
      {t('race.offIn', { time: countdownText(leftMs) })}
    </span>
  );
}
