import { apiPost, dataOr } from '../../api/client';

export interface Race {
  match_id: number;
  name: string;
  market_start_time: string;
}

export interface Venue {
  venue: string;
  country_code: string;
  races: Race[];
}

export async function getVenues(country: string, date: string, sport_id: number): Promise<Venue[]> {
  return dataOr(await apiPost<Venue[]>('match/getMatchVenueListByCountryCodeSportId', { country, date, sport_id }), []);
}

export interface RaceMatch {
  match_id: number;
  name: string;
  match_name: string;
  open_date: string;
  sport_id: number;
  sport_name: string;
  series_name?: string;
  in_play?: boolean;
}

export async function getRaceMatches(sport_id: number): Promise<RaceMatch[]> {
  return dataOr(await apiPost<RaceMatch[]>('match/getMatches', { sport_id, is_active: 1 }), []);
}
