import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime, istDateKey, shiftDateKey } from '../../lib/format';
import { countryName, getRacingCountries, getVenues } from './api';

/** The racing sports, each named by its key (racing.horse, racing.greyhound). */
const SPORTS = [
  { id: 7, name: 'horse' },
  { id: 4339, name: 'greyhound' },
] as const;
/**
 * /horse-racing: sport tabs, a date, a tab per country with races that day (from the server), and
 * the venues with their race times, those run and over marked Finished; a time opens the race
 * card (a finished one with its result).
 */
export function HorseRacingPage() {
  const { t } = useTranslation('betting');
  const [params, setParams] = useSearchParams();
  const sportId = Number(params.get('sport_id') ?? 7) === 4339 ? 4339 : 7;
  const date = params.get('date') ?? istDateKey();
  const sport = SPORTS.find((s) => s.id === sportId);
  const countries = useQuery({ queryKey: ['racingCountries', sportId, date], queryFn: () => getRacingCountries(sportId, date) });
  const codes = (countries.data ?? []).map((c) => c.country_code);
  // The country asked for when it has races that day, else the one with the most.
  const asked = params.get('country')?.toUpperCase();
  const country = asked && codes.includes(asked) ? asked : codes[0];
  const update = (change: Record<string, string>) =>
    setParams({ sport_id: String(sportId), ...(country ? { country } : {}), date, ...change }, { replace: true });

  const venues = useQuery({
    queryKey: ['venues', sportId, country, date],
    queryFn: () => getVenues(country ?? '', date, sportId),
    enabled: country !== undefined,
  });

  return (
    <PageCard title={sport ? t(`racing.${sport.name}`) : t('racing.title')} testId="horse-racing-page">
      <div className="chip-tabs" role="tablist" aria-label={t('racing.sport')}>
        {SPORTS.map((s) => (
          <button key={s.id} type="button" role="tab" aria-selected={s.id === sportId} className={s.id === sportId ? 'active' : undefined} onClick={() => update({ sport_id: String(s.id) })}>
            {t(`racing.${s.name}`)}
          </button>
        ))}
      </div>
      <div className="chip-tabs" role="tablist" aria-label={t('racing.country')}>
        {codes.map((code) => (
          <button key={code} type="button" role="tab" aria-selected={code === country} className={code === country ? 'active' : undefined} onClick={() => update({ country: code })} data-testid="racing-country">
            {countryName(code)}
          </button>
        ))}
      </div>
      <div className="filter-row">
        <button type="button" className="btn btn-small" onClick={() => update({ date: shiftDateKey(date, -1) })} aria-label={t('racing.dayBefore')} data-testid="racing-prev-day">
          ‹
        </button>
        <label>
          {t('racing.date')}
          <input type="date" value={date} onChange={(e) => e.target.value && update({ date: e.target.value })} data-testid="racing-date" />
        </label>
        <button type="button" className="btn btn-small" onClick={() => update({ date: shiftDateKey(date, 1) })} aria-label={t('racing.dayAfter')} data-testid="racing-next-day">
          ›
        </button>
      </div>
      <QueryState
        isPending={countries.isPending || (country !== undefined && venues.isPending)}
        error={countries.error ?? venues.error}
        isEmpty={country === undefined || (venues.data ?? []).length === 0}
        empty={t('racing.empty')}
      >
        <ul className="venue-list" data-testid="venue-list">
          {(venues.data ?? []).map((venue) => (
            <li key={venue.venue} data-testid="venue">
              <h3>{venue.venue}</h3>
              <div className="race-times">
                {venue.races.map((race) => (
                  <Link
                    key={race.match_id}
                    className={`race-time${race.in_play ? ' in-play' : ''}${race.finished ? ' finished' : ''}`}
                    to={`/horse-racing/${race.match_id}/${date}`}
                    data-testid="race-time"
                    data-finished={race.finished}
                  >
                    {formatIstDateTime(race.market_start_time).slice(11, 16)}
                    {race.in_play ? ` · ${t('match.inPlay')}` : ''}
                    {race.finished ? ` · ${t('match.finished')}` : ''}
                  </Link>
                ))}
              </div>
            </li>
          ))}
        </ul>
      </QueryState>
    </PageCard>
  );
}
