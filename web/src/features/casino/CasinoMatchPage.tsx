import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { getCasinoList } from './api';

/** /casino/match/:matchId and /CM/MD/:matchId: one casino table (rounds and betting come later). */
export function CasinoMatchPage() {
  const matchId = useParams().matchId ?? '';
  const games = useQuery({ queryKey: ['casinoList', ''], queryFn: () => getCasinoList() });
  const game = games.data?.find((g) => String(g.match_id) === matchId || g.game_code === matchId);
  return (
    <PageCard title={game?.name ?? matchId.toUpperCase()} testId="casino-match-page">
      <QueryState isPending={games.isPending} error={games.error}>
        {game ? (
          <p>The {game.name} table opens here with its rounds and results. Betting on casino tables comes soon.</p>
        ) : (
          <p className="empty-state">
            This game is not available right now. <Link to="/casino/list">See all casino games</Link>
          </p>
        )}
      </QueryState>
    </PageCard>
  );
}
