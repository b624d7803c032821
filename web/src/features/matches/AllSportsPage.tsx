import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { getMatches, getSeries, getSports, sortMatches } from './api';
import { MatchList } from './MatchList';
import { useLiveList } from './useLiveList';

/** One sport's matches, optionally one series: in-play first, start times at UTC+5:30, prices live from the list stream. */
export function AllSportsPage() {
  const { t } = useTranslation('matches');
  const sportId = Number(useParams().sportId);
  const [params, setParams] = useSearchParams();
  const seriesId = params.get('series_id') ? Number(params.get('series_id')) : undefined;
  const valid = Number.isFinite(sportId);
  const queryKey = ['matches', 'sport', sportId, seriesId ?? null];
  // The stream follows the sport; a series is a filter of the same lines.
  const refetchInterval = useLiveList(queryKey, valid ? sportId : null);
  const matches = useQuery({
    queryKey,
    queryFn: () => getMatches(seriesId ? { sport_id: sportId, series_id: seriesId } : { sport_id: sportId }),
    enabled: valid,
    refetchInterval,
    staleTime: 0,
  });
  const series = useQuery({ queryKey: ['series', sportId], queryFn: () => getSeries(sportId), enabled: valid });
  const sports = useQuery({ queryKey: ['activeSports'], queryFn: getSports });
  const name = sports.data?.find((s) => s.sport_id === sportId)?.name ?? matches.data?.[0]?.sport_name ?? t('sport');
  const list = sortMatches(matches.data ?? []);
  return (
    <PageCard title={name} testId="all-sports-page">
      {!valid ? (
        <p className="error-message">{t('sportPage.unknown')}</p>
      ) : (
        <>
          {(series.data ?? []).length > 1 && (
            <div className="chip-tabs" role="tablist" aria-label={t('sportPage.competitions')}>
              <button type="button" role="tab" aria-selected={!seriesId} className={!seriesId ? 'active' : undefined} onClick={() => setParams({})}>
                {t('sportPage.all')}
              </button>
              {(series.data ?? []).map((s) => (
                <button
                  key={s.series_id}
                  type="button"
                  role="tab"
                  aria-selected={seriesId === s.series_id}
                  className={seriesId === s.series_id ? 'active' : undefined}
                  onClick={() => setParams({ series_id: String(s.series_id) })}
                >
                  {s.name}
                </button>
              ))}
            </div>
          )}
          <QueryState isPending={matches.isPending} error={matches.error} isEmpty={list.length === 0} empty={t('sportPage.noMatches')}>
            <MatchList matches={list} />
          </QueryState>
        </>
      )}
    </PageCard>
  );
}
