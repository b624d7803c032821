import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';
import { currentLanguage } from '../../i18n';

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

/** Country names per language, made once each (the browser's own CLDR data). */
const regionNames = new Map<string, Intl.DisplayNames | null>();

/** A country's name in the app's language from its two-letter code, else the code. */
export function countryName(code: string): string {
  const language = currentLanguage();
  if (!regionNames.has(language)) {
    regionNames.set(language, typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames([language], { type: 'region' }) : null);
  }
  try {
    return regionNames.get(language)?.of(code) ?? code;
  } catch {
    return code;
  }
}
