import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { orderSports, RACING_IDS, sportPath, topNavSports } from '../../lib/sports';
import { getCups, getMatches, getSports, LIST_REFRESH_MS, sortMatches, type Match } from './api';
import { MatchList } from './MatchList';

/** Home: every active sport's matches, in-play first, with the match odds' best prices. */
export function HomePage() {
  const matches = useQuery({ queryKey: ['matches', 'all'], queryFn: () => getMatches(), refetchInterval: LIST_REFRESH_MS, staleTime: 0 });
  const sports = useQuery({ queryKey: ['activeSports'], queryFn: getSports });
  const cups = useQuery({ queryKey: ['cups'], queryFn: getCups });
  const visible = new Set(topNavSports(sports.data ?? []).map((s) => s.sport_id));
  const bySport = new Map<number, Match[]>();
  for (const m of matches.data ?? []) {
    // Racing has its own page of meetings and race times.
    if ((sports.data && !visible.has(m.sport_id)) || RACING_IDS.has(m.sport_id)) continue;
    bySport.set(m.sport_id, [...(bySport.get(m.sport_id) ?? []), m]);
  }
  const order = orderSports(
    [...bySport.keys()].map((id) => ({ sport_id: id, order: sports.data?.find((s) => s.sport_id === id)?.order })),
  );

  return (
    <div className="page-stack" data-testid="home-page">
      {(cups.data ?? []).length > 0 && (
        <nav className="chip-tabs featured" aria-label="Featured competitions" data-testid="featured-cups">
          {(cups.data ?? []).map((cup) => (
            <Link key={cup.series_id} to={`/all-sports/${cup.sport_id}?series_id=${cup.series_id}`}>
              {cup.name}
            </Link>
          ))}
        </nav>
      )}
      <QueryState isPending={matches.isPending} error={matches.error} isEmpty={bySport.size === 0} empty="No matches are open right now.">
        {order.map(({ sport_id }) => {
          const list = sortMatches(bySport.get(sport_id) ?? []);
          return (
            <PageCard
              key={sport_id}
              title={list[0]?.sport_name ?? 'Sport'}
              actions={<Link to={sportPath(sport_id)} className="card-link">View all</Link>}
            >
              <MatchList matches={list} />
            </PageCard>
          );
        })}
      </QueryState>
    </div>
  );
}
