import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { isMissingEndpoint } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { EmptyState, QueryState } from '../../components/QueryState';
import { formatIstDateTime, istDateKey } from '../../lib/format';
import { getRaceMatches, getVenues } from './api';

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

/** /horse-racing: country tabs, a date and the venues with their races (cards come with the markets issue). */
export function HorseRacingPage() {
  const [params, setParams] = useSearchParams();
  const sportId = Number(params.get('sport_id') ?? 7) === 4339 ? 4339 : 7;
  const country = params.get('country') ?? 'GB';
  const date = params.get('date') ?? istDateKey();
  const update = (change: Record<string, string>) => setParams({ sport_id: String(sportId), country, date, ...change }, { replace: true });

  const venues = useQuery({ queryKey: ['venues', sportId, country, date], queryFn: () => getVenues(country, date, sportId) });
  const missing = isMissingEndpoint(venues.error);
  // Until the venue list exists on the server, the sport's races come from the match list.
  const fallback = useQuery({ queryKey: ['raceMatches', sportId], queryFn: () => getRaceMatches(sportId), enabled: missing });

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
      <label className="filter-row">
        Date
        <input type="date" value={date} onChange={(e) => e.target.value && update({ date: e.target.value })} data-testid="racing-date" />
      </label>
      {missing ? (
        <QueryState isPending={fallback.isPending} error={fallback.error} isEmpty={(fallback.data ?? []).length === 0} empty="No races today.">
          <ul className="venue-list" data-testid="race-list">
            {(fallback.data ?? []).map((race) => (
              <li key={race.match_id}>
                <Link to={`/horse-racing/${race.match_id}/${istDateKey(race.open_date)}`}>
                  <b>{formatIstDateTime(race.open_date).slice(11, 16)}</b> {race.match_name || race.name}
                </Link>
                <span className="muted small"> {race.series_name}</span>
              </li>
            ))}
          </ul>
        </QueryState>
      ) : (
        <QueryState isPending={venues.isPending} error={venues.error} isEmpty={(venues.data ?? []).length === 0} empty="No races for this country on this date.">
          <ul className="venue-list" data-testid="venue-list">
            {(venues.data ?? []).map((venue) => (
              <li key={venue.venue}>
                <h3>{venue.venue}</h3>
                <div className="race-times">
                  {venue.races.map((race) => (
                    <Link key={race.match_id} className="race-time" to={`/horse-racing/${race.match_id}/${date}`}>
                      {formatIstDateTime(race.market_start_time).slice(11, 16)}
                    </Link>
                  ))}
                </div>
              </li>
            ))}
          </ul>
        </QueryState>
      )}
      {venues.error && !missing ? <EmptyState>Try another date or country.</EmptyState> : null}
    </PageCard>
  );
}
