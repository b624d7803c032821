import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { getCasinoList, getCasinoSports } from './api';
import { GameTileArt } from './GameTileArt';

/** The world-casino category is the providers' catalogue page; the others list in-house games. */
function categoryPath(sportId: string): string {
  return sportId === WORLD_CASINO ? '/world-casino' : `/casino/list/${encodeURIComponent(sportId)}`;
}

/** The category id (casino_sports) whose tab opens the world casino. */
const WORLD_CASINO = 'worldcasino';

/**
 * /casino/list and /casino/list/:seriesId: the casino categories (the server's, in its order:
 * only those with games) and their games, each tile the game's art over its name.
 */
export function CasinoListPage() {
  const { t } = useTranslation('casino');
  const seriesId = useParams().seriesId;
  const sports = useQuery({ queryKey: ['casinoSports'], queryFn: getCasinoSports });
  const games = useQuery({ queryKey: ['casinoList', seriesId ?? ''], queryFn: () => getCasinoList(seriesId) });
  return (
    <PageCard title={t('list.title')} testId="casino-list-page">
      <nav className="chip-tabs" aria-label={t('list.categoriesLabel')}>
        <NavLink to="/casino/list" end>
          {t('list.all')}
        </NavLink>
        {(sports.data ?? []).map((s) => (
          <NavLink key={s.sport_id} to={categoryPath(s.sport_id)} data-testid="casino-category">
            {s.name}
          </NavLink>
        ))}
        <NavLink to="/casino/mac88">Mac88</NavLink>
      </nav>
      <QueryState isPending={games.isPending} error={games.error} isEmpty={(games.data ?? []).length === 0} empty={t('list.empty')}>
        <ul className="game-grid" data-testid="casino-games">
          {(games.data ?? []).map((g) => (
            <li key={g.match_id}>
              <Link to={`/casino/match/${g.match_id}`} className="game-tile">
                <GameTileArt key={g.image} src={g.image} name={g.name} />
                <span className="game-tile-name">{g.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      </QueryState>
    </PageCard>
  );
}
