import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { EmptyState, QueryState } from '../../components/QueryState';
import { orderSports, RACING_IDS, sportPath, topNavSports } from '../../lib/sports';
import { getCups, getMatches, getSports, sortMatches, type Match } from './api';
import { MatchList } from './MatchList';
import { useLiveList } from './useLiveList';

const HOME_KEY = ['matches', 'all'] as const;

/**
 * Home as the top exchanges lay it out: the In-Play block first (every sport's matches in
 * play), then one tab per sport with its matches still to start. Prices come live from the
 * list stream.
 */
export function HomePage() {
  const { t } = useTranslation('matches');
  const refetchInterval = useLiveList(HOME_KEY, 'all');
  const matches = useQuery({ queryKey: HOME_KEY, queryFn: () => getMatches(), refetchInterval, staleTime: 0 });
  const sports = useQuery({ queryKey: ['activeSports'], queryFn: getSports });
  const cups = useQuery({ queryKey: ['cups'], queryFn: getCups });
  const [chosen, setChosen] = useState<number | null>(null);

  const visible = new Set(topNavSports(sports.data ?? []).map((s) => s.sport_id));
  // Racing has its own page of meetings and race times.
  const listed = (matches.data ?? []).filter((m) => !RACING_IDS.has(m.sport_id) && (!sports.data || visible.has(m.sport_id)));
  const inPlay = sortMatches(listed.filter((m) => m.in_play));
  const upcoming = new Map<number, Match[]>();
  for (const m of sortMatches(listed.filter((m) => !m.in_play))) upcoming.set(m.sport_id, [...(upcoming.get(m.sport_id) ?? []), m]);
  const tabs = orderSports(
    [...upcoming.keys()].map((id) => ({
      sport_id: id,
      order: sports.data?.find((s) => s.sport_id === id)?.order,
      name: upcoming.get(id)?.[0]?.sport_name ?? t('sport'),
    })),
  );
  const current = tabs.find((tab) => tab.sport_id === chosen) ?? tabs[0];

  return (
    <div className="page-stack" data-testid="home-page">
      {(cups.data ?? []).length > 0 && (
        <nav className="chip-tabs featured" aria-label={t('home.featured')} data-testid="featured-cups">
          {(cups.data ?? []).map((cup) => (
            <Link key={cup.series_id} to={`/all-sports/${cup.sport_id}?series_id=${cup.series_id}`}>
              {cup.name}
            </Link>
          ))}
        </nav>
      )}
      <QueryState isPending={matches.isPending} error={matches.error} isEmpty={listed.length === 0} empty={t('home.noMatches')}>
        <PageCard title={<span className="in-play-title">{t('inPlay')}</span>} testId="in-play-block">
          {inPlay.length > 0 ? <MatchList matches={inPlay} /> : <EmptyState>{t('home.noneInPlay')}</EmptyState>}
        </PageCard>
        {current && (
          <section className="page-card" data-testid="sport-tabs-card">
            <div className="sport-tabs" role="tablist" aria-label={t('nav.sports')} data-scroll-x>
              {tabs.map((tab) => (
                <button
                  key={tab.sport_id}
                  type="button"
                  role="tab"
                  id={`sport-tab-${tab.sport_id}`}
                  aria-selected={tab.sport_id === current.sport_id}
                  aria-controls="sport-tab-panel"
                  className={tab.sport_id === current.sport_id ? 'active' : undefined}
                  onClick={() => setChosen(tab.sport_id)}
                  data-testid="sport-tab"
                >
                  {tab.name}
                </button>
              ))}
            </div>
            <div className="page-card-body" role="tabpanel" id="sport-tab-panel" aria-labelledby={`sport-tab-${current.sport_id}`}>
              <MatchList matches={upcoming.get(current.sport_id) ?? []} />
              <Link to={sportPath(current.sport_id)} className="view-all" data-testid="view-all">
                {t('home.viewAll', { sport: current.name })}
              </Link>
            </div>
          </section>
        )}
      </QueryState>
    </div>
  );
}
