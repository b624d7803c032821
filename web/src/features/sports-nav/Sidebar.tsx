import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { casinoGamesKey, getCasinoGames } from '../../api/casino-games';
import { AppDownloadLink } from '../../components/AppDownloadLink';
import { LOCAL_KEYS, readJson, writeJson } from '../../lib/storage';
import { getSeriesMatches, getSidebarTree, type SportWithSeries } from './api';
import { QUICK_CASINO_GAMES } from './casino-games';
import { sidebarSports } from '../../lib/sports';

async function loadTree(): Promise<SportWithSeries[]> {
  const tree = await getSidebarTree();
  writeJson(localStorage, LOCAL_KEYS.testData, tree);
  return tree;
}

/**
 * The left sidebar (spec §2): the "Others" quick-launch casino games and the "All Sports"
 * accordion sport → series → match, one sport and one series open at a time.
 */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation(['matches', 'common']);
  const tree = useQuery({
    queryKey: ['sidebarTree'],
    queryFn: loadTree,
    placeholderData: () => readJson<SportWithSeries[]>(localStorage, LOCAL_KEYS.testData) ?? undefined,
  });
  const [openSport, setOpenSport] = useState<number | null>(null);
  const [openSeries, setOpenSeries] = useState<number | null>(null);
  const sports = sidebarSports(Array.isArray(tree.data) ? tree.data : []);
  // Only tables the operator has on (the server lists no other): a switched-off one leaves
  // the sidebar as it leaves the lobby. Until the list is read, none is offered.
  const casino = useQuery({ queryKey: casinoGamesKey(), queryFn: () => getCasinoGames(), staleTime: 60_000 });
  const activeCodes = new Set((casino.data ?? []).map((game) => game.game_code));
  const quickGames = QUICK_CASINO_GAMES.filter((game) => activeCodes.has(game.code));

  return (
    <nav className="sidebar" aria-label={t('sidebar.label')} data-testid="sidebar">
      <AppDownloadLink className="sidebar-app-link" />
      <h2 className="sidebar-heading">{t('sidebar.others')}</h2>
      <ul className="sidebar-list" data-testid="sidebar-others">
        {quickGames.map((game) => (
          <li key={game.code}>
            <NavLink to={`/casino/match/${game.code}`} onClick={onNavigate}>
              {game.name}
            </NavLink>
          </li>
        ))}
      </ul>
      <h2 className="sidebar-heading">{t('sidebar.allSports')}</h2>
      {tree.isPending && sports.length === 0 ? (
        <p className="sidebar-note">{t('common:loading')}</p>
      ) : tree.error && sports.length === 0 ? (
        <p className="sidebar-note">{t('sidebar.sportsFailed')}</p>
      ) : (
        <ul className="sidebar-tree" data-testid="sidebar-sports">
          {sports.map((sport) => {
            const sportOpen = openSport === sport.sport_id;
            return (
              <li key={sport.sport_id} className={sportOpen ? 'open' : undefined}>
                <button
                  type="button"
                  className="tree-toggle level-1"
                  aria-expanded={sportOpen}
                  data-testid="sidebar-sport"
                  onClick={() => {
                    setOpenSport(sportOpen ? null : sport.sport_id);
                    setOpenSeries(null);
                  }}
                >
                  {sport.name}
                </button>
                {sportOpen && (
                  <ul>
                    {sport.series.length === 0 && <li className="sidebar-note">{t('sidebar.noSeries')}</li>}
                    {sport.series.map((series) => {
                      const seriesOpen = openSeries === series.series_id;
                      return (
                        <li key={series.series_id} className={seriesOpen ? 'open' : undefined}>
                          <button
                            type="button"
                            className="tree-toggle level-2"
                            aria-expanded={seriesOpen}
                            data-testid="sidebar-series"
                            onClick={() => setOpenSeries(seriesOpen ? null : series.series_id)}
                          >
                            {series.name}
                          </button>
                          {seriesOpen && <SeriesMatches sportId={sport.sport_id} seriesId={series.series_id} onNavigate={onNavigate} />}
                        </li>
                      );
                    })}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

function SeriesMatches({ sportId, seriesId, onNavigate }: { sportId: number; seriesId: number; onNavigate?: () => void }) {
  const { t } = useTranslation(['matches', 'common']);
  const matches = useQuery({ queryKey: ['seriesMatches', sportId, seriesId], queryFn: () => getSeriesMatches(sportId, seriesId) });
  if (matches.isPending) return <p className="sidebar-note">{t('common:loading')}</p>;
  if (matches.error) return <p className="sidebar-note">{t('sidebar.matchesFailed')}</p>;
  if (!matches.data?.length) return <p className="sidebar-note">{t('sidebar.noMatches')}</p>;
  return (
    <ul>
      {matches.data.map((m) => (
        <li key={m.match_id}>
          <NavLink className="tree-leaf" to={`/game-details/${m.sport_id}/${m.match_id}`} onClick={onNavigate} data-testid="sidebar-match">
            {m.match_name || m.name}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
