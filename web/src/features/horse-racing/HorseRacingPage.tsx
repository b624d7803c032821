import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime, istDateKey, shiftDateKey } from '../../lib/format';
import { getVenues } from './api';

const SPORTS = [
  { id: 7, name: 'Horse Racing' },
  { id: 4339, name: 'Greyhound Racing' },
];
const COUNTRIES = [
  { code: 'GB', name: 'UK' },
  { code: 'IE', name: 'Ireland' },
  { code: 'AU', name: 'Australia' },
  { code: 'US', name: 'USA' },
  { code: 'FR', name: 'France' },
  { code: 'ZA', name: 'South Africa' },
  { code: 'NZ', name: 'New Zealand' },
  { code: 'IN', name: 'India' },
];

/** /horse-racing: sport and country tabs, a date, and the venues with their race times; a time opens the race card. */
export function HorseRacingPage() {
  const [params, setParams] = useSearchParams();
  const sportId = Number(params.get('sport_id') ?? 7) === 4339 ? 4339 : 7;
  const country = params.get('country') ?? 'GB';
  const date = params.get('date') ?? istDateKey();
  const update = (change: Record<string, string>) => setParams({ sport_id: String(sportId), country, date, ...change }, { replace: true });

  const venues = useQuery({ queryKey: ['venues', sportId, country, date], queryFn: () => getVenues(country, date, sportId) });

  return (
    <PageCard title={SPORTS.find((s) => s.id === sportId)?.name ?? 'Racing'} testId="horse-racing-page">
      <div className="chip-tabs" role="tablist" aria-label="Sport">
        {SPORTS.map((s) => (
          <button key={s.id} type="button" role="tab" aria-selected={s.id === sportId} className={s.id === sportId ? 'active' : undefined} onClick={() => update({ sport_id: String(s.id) })}>
            {s.name}
          </button>
        ))}
      </div>
      <div className="chip-tabs" role="tablist" aria-label="Country">
        {COUNTRIES.map((c) => (
          <button key={c.code} type="button" role="tab" aria-selected={c.code === country} className={c.code === country ? 'active' : undefined} onClick={() => update({ country: c.code })} data-testid="racing-country">
            {c.name}
          </button>
        ))}
      </div>
      <div className="filter-row">
        <button type="button" className="btn btn-small" onClick={() => update({ date: shiftDateKey(date, -1) })} aria-label="The day before" data-testid="racing-prev-day">
          ‹
        </button>
        <label>
          Date
          <input type="date" value={date} onChange={(e) => e.target.value && update({ date: e.target.value })} data-testid="racing-date" />
        </label>
        <button type="button" className="btn btn-small" onClick={() => update({ date: shiftDateKey(date, 1) })} aria-label="The day after" data-testid="racing-next-day">
          ›
        </button>
      </div>
      <QueryState isPending={venues.isPending} error={venues.error} isEmpty={(venues.data ?? []).length === 0} empty="No races for this country on this date. Try another date or country.">
        <ul className="venue-list" data-testid="venue-list">
          {(venues.data ?? []).map((venue) => (
            <li key={venue.venue} data-testid="venue">
              <h3>{venue.venue}</h3>
              <div className="race-times">
                {venue.races.map((race) => (
                  <Link key={race.match_id} className={`race-time${race.in_play ? ' in-play' : ''}`} to={`/horse-racing/${race.match_id}/${date}`} data-testid="race-time">
                    {formatIstDateTime(race.market_start_time).slice(11, 16)}
                    {race.in_play ? ' · In Play' : ''}
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
