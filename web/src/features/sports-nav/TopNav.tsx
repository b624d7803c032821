import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { getActiveSports } from './api';
import { sportPath, topNavSports } from '../../lib/sports';

/** Home, INT Casino and one tab per active sport except id -1 (spec §2). */
export function TopNav({ onMenu }: { onMenu?: () => void }) {
  const { t } = useTranslation('matches');
  const sports = useQuery({ queryKey: ['activeSports'], queryFn: getActiveSports });
  const location = useLocation();
  const list = topNavSports(sports.data ?? []);
  return (
    <nav className="top-nav" aria-label={t('nav.sports')} data-testid="top-nav" data-scroll-x>
      {onMenu && (
        <button type="button" className="top-nav-menu" aria-label={t('nav.menu')} onClick={onMenu} data-testid="sidebar-toggle">
          ☰
        </button>
      )}
      <ul>
        <li>
          <NavLink to="/" end>
            {t('nav.home')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/world-casino">{t('nav.intCasino')}</NavLink>
        </li>
        {list.map((sport) => {
          const path = sportPath(sport.sport_id);
          const active = location.pathname + location.search === path || location.pathname === path;
          return (
            <li key={sport.sport_id}>
              <NavLink to={path} className={() => (active ? 'active' : '')} data-testid="top-nav-sport">
                {sport.name}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
