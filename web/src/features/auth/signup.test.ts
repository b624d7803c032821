import { describe, expect, it, vi } from 'vitest';
import { COUNTRIES } from './countries';
import { countryCodeFromGeo, lookUpCountryCode } from './geolocation';
import { mobileDigits, mobileProblem } from './phone';

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

describe('the mobile number for the chosen country', () => {
  it('takes a 10-digit Indian mobile and refuses 9 or 11 digits, saying how many', () => {
    expect(mobileProblem('IN', '9876543210')).toBeNull();
    expect(mobileProblem('IN', '987654321')).toBe('A mobile number in India has 10 digits.');
    expect(mobileProblem('IN', '98765432101')).toBe('A mobile number in India has 10 digits.');
    expect(mobileDigits('IN')).toBe(10);
  });

  it('knows other countries and prefixes', () => {
    expect(mobileProblem('GB', '7911123456')).toBeNull();
    expect(mobileProblem('GB', '791112345')).toMatch(/^A mobile number in United Kingdom has 10 digits\.$/);
    // Ten digits, but no Indian mobile starts with 1.
    expect(mobileProblem('IN', '1234567890')).toBe('This is not a mobile number in India (+91).');
    expect(mobileProblem('IN', '98765x3210')).toBe('Mobile number must be digits only.');
  });
});
