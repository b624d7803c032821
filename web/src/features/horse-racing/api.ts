import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

/** A race; `market_start_time` is the off, ISO-8601 UTC. */
export type Race = Schemas['Race'];
export type Venue = Schemas['Venue'];

/** Race meetings of a racing sport (7 horses, 4339 greyhounds) in a country on a day (yyyy-MM-dd at UTC+5:30). */
export async function getVenues(country: string, date: string, sport_id: number): Promise<Venue[]> {
  return dataOr(await apiPost<Venue[]>('match/getMatchVenueListByCountryCodeSportId', { country, date, sport_id }), []);
}

/** A country with races of the sport (that day): its ISO 3166-1 code and how many venues and races. */
export type RacingCountry = Schemas['RacingCountry'];

/** The countries that have races of a racing sport on a day (yyyy-MM-dd at UTC+5:30), most races first. */
export async function getRacingCountries(sport_id: number, date: string): Promise<RacingCountry[]> {
  return dataOr(await apiPost<RacingCountry[]>('match/getRacingCountries', { sport_id, date }), []);
}

const regionNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;

/** A country's name in English from its two-letter code (the browser's own CLDR data), else the code. */
export function countryName(code: string): string {
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}
