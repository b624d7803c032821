import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime } from '../../lib/format';
import { getRaceMatches } from './api';

/** /horse-racing/:matchId/:date: one race (the race card and betting come with the markets issue). */
export function RacePage() {
  const { matchId, date } = useParams();
  const races = useQuery({
    queryKey: ['raceMatches', 'both'],
    queryFn: async () => [...(await getRaceMatches(7)), ...(await getRaceMatches(4339))],
  });
  const race = races.data?.find((r) => String(r.match_id) === matchId);
  return (
    <PageCard title={race ? race.match_name || race.name : 'Race'} testId="race-page">
      <QueryState isPending={races.isPending} error={races.error}>
        {race ? (
          <>
            <p>
              {race.sport_name} · {race.series_name} · {formatIstDateTime(race.open_date)}
            </p>
            <p className="muted">Win and place markets for this race open soon.</p>
          </>
        ) : (
          <p className="empty-state">
            No race {matchId} on {date}. <Link to="/horse-racing">See today's races</Link>
          </p>
        )}
      </QueryState>
    </PageCard>
  );
}
