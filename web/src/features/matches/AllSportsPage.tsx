import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { getMatches, getSports, sortMatches } from './api';
import { MatchList } from './MatchList';

/** One sport's matches: in-play first, start times at UTC+5:30. */
export function AllSportsPage() {
  const sportId = Number(useParams().sportId);
  const matches = useQuery({ queryKey: ['matches', 'sport', sportId], queryFn: () => getMatches({ sport_id: sportId }), enabled: Number.isFinite(sportId) });
  const sports = useQuery({ queryKey: ['activeSports'], queryFn: getSports });
  const name = sports.data?.find((s) => s.sport_id === sportId)?.name ?? matches.data?.[0]?.sport_name ?? 'Sport';
  const list = sortMatches(matches.data ?? []);
  return (
    <PageCard title={name} testId="all-sports-page">
      {!Number.isFinite(sportId) ? (
        <p className="error-message">Unknown sport.</p>
      ) : (
        <QueryState isPending={matches.isPending} error={matches.error} isEmpty={list.length === 0} empty="No matches for this sport right now.">
          <MatchList matches={list} />
        </QueryState>
      )}
    </PageCard>
  );
}
