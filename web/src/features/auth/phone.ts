// Is this a mobile number of the chosen country? Google's libphonenumber rules (through the
// maintained `awesome-phonenumber` package) know each country's lengths and prefixes, so the
// sign-up form can say "A mobile number in India has 10 digits." before anything is sent.
import { getExample, parsePhoneNumber } from 'awesome-phonenumber';
import { countryByCode } from './countries';

/** The digits a mobile number of the country has (from its example number), if known. */
export function mobileDigits(countryCode: string): number | null {
  const example = getExample(countryCode.toUpperCase(), 'mobile');
  return example.valid ? example.number.significant.length : null;
}

/** Why `mobile` is not a mobile number of the country, in words; null when it is one. */
export function mobileProblem(countryCode: string, mobile: string): string | null {
  const digits = mobile.trim();
  const country = countryByCode(countryCode);
  if (!/^\d+$/.test(digits)) return 'Mobile number must be digits only.';
  if (!country) return 'Choose a country.';
  const parsed = parsePhoneNumber(digits, { regionCode: country.code });
  if (parsed.valid && (parsed.typeIsMobile || parsed.type === 'fixed-line-or-mobile')) return null;
  const expected = mobileDigits(country.code);
  if (expected !== null && (parsed.number?.significant ?? digits).length !== expected) {
    return `A mobile number in ${country.name} has ${expected} digits.`;
  }
  return `This is not a mobile number in ${country.name} (${country.dial_code}).`;
}
