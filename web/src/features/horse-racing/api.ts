import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

/** A race; `market_start_time` is the off, ISO-8601 UTC. */
export type Race = Schemas['Race'];
export type Venue = Schemas['Venue'];

/** Race meetings of a racing sport (7 horses, 4339 greyhounds) in a country on a day (yyyy-MM-dd at UTC+5:30). */
export async function getVenues(country: string, date: string, sport_id: number): Promise<Venue[]> {
  return dataOr(await apiPost<Venue[]>('match/getMatchVenueListByCountryCodeSportId', { country, date, sport_id }), []);
}
