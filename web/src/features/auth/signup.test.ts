import { describe, expect, it, vi } from 'vitest';
import { COUNTRIES } from './countries';
import { countryCodeFromGeo, lookUpCountryCode } from './geolocation';

describe('sign-up countries', () => {
  it('has about 240 countries with dial codes, India first', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(230);
    expect(COUNTRIES[0]).toMatchObject({ name: 'India', code: 'IN', dial_code: '+91' });
    expect(COUNTRIES.every((c) => /^\+\d+$/.test(c.dial_code) && /^[A-Z]{2}$/.test(c.code) && c.flag)).toBe(true);
    expect(COUNTRIES.find((c) => c.code === 'GB')?.dial_code).toBe('+44');
  });
});

describe('default country from IP geolocation', () => {
  it('reads the country code from common answer shapes', () => {
    expect(countryCodeFromGeo({ geo: { country_code2: 'gb' } })).toBe('GB');
    expect(countryCodeFromGeo({ country_code: 'AE' })).toBe('AE');
    expect(countryCodeFromGeo({ countryCode: 'US' })).toBe('US');
    expect(countryCodeFromGeo({ nothing: 1 })).toBeNull();
  });

  it('asks the configured address with ip and fields=geo', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ geo: { country_code2: 'AU' } }))));
    vi.stubGlobal('fetch', fetch);
    expect(await lookUpCountryCode('https://geo.example.test/ipgeo?apiKey=k')).toBe('AU');
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]));
    expect(url.searchParams.get('fields')).toBe('geo');
    expect(url.searchParams.has('ip')).toBe(true);
    expect(url.searchParams.get('apiKey')).toBe('k');
  });

  it('only logs a failure to the console', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('offline'))));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await lookUpCountryCode('https://geo.example.test/ipgeo')).toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it('does nothing without a configured address', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await lookUpCountryCode('')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
