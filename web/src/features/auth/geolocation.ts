// The default country of the sign-up form, from a third-party IP-geolocation service
// (spec §7: GET with the query `ip` and `fields=geo`). Its address is a build setting;
// a failure is only logged to the console (spec §8).
import { GEOLOCATION_URL } from '../../config/env';

const TIMEOUT_MS = 4000;

/** Reads a two-letter country code from the answer shapes such services give. */
export function countryCodeFromGeo(answer: unknown): string | null {
  if (!answer || typeof answer !== 'object') return null;
  const a = answer as Record<string, unknown>;
  const geo = (a.geo && typeof a.geo === 'object' ? a.geo : a) as Record<string, unknown>;
  for (const key of ['country_code2', 'country_code', 'countryCode', 'country']) {
    const value = geo[key] ?? a[key];
    if (typeof value === 'string' && /^[A-Za-z]{2}$/.test(value)) return value.toUpperCase();
  }
  return null;
}

export async function lookUpCountryCode(url: string = GEOLOCATION_URL): Promise<string | null> {
  if (!url) return null;
  try {
    const address = new URL(url, window.location.href);
    if (!address.searchParams.has('ip')) address.searchParams.set('ip', '');
    address.searchParams.set('fields', 'geo');
    const response = await fetch(address, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw new Error(`geolocation answered ${response.status}`);
    return countryCodeFromGeo(await response.json());
  } catch (error) {
    console.error('Could not look up the default country:', error);
    return null;
  }
}
