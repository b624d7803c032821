import { apiPost, dataOr } from '../../api/client';

export interface Race {
  match_id: number;
  name: string;
  /** The off, ISO-8601 UTC. */
  market_start_time: string;
  in_play?: boolean;
}

export interface Venue {
  venue: string;
  country_code: string;
  races: Race[];
}

/** Race meetings of a racing sport (7 horses, 4339 greyhounds) in a country on a day (yyyy-MM-dd at UTC+5:30). */
export async function getVenues(country: string, date: string, sport_id: number): Promise<Venue[]> {
  return dataOr(await apiPost<Venue[]>('match/getMatchVenueListByCountryCodeSportId', { country, date, sport_id }), []);
}
