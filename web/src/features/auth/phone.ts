// Is this a mobile number of the chosen country? Google's libphonenumber rules (through the
// maintained `awesome-phonenumber` package) know each country's lengths and prefixes, so the
// sign-up form can say "A mobile number in India has 10 digits." before anything is sent.
import { getExample, parsePhoneNumber } from 'awesome-phonenumber';
import { i18n } from '../../i18n';
import { countryByCode, countryName } from './countries';

/** The digits a mobile number of the country has (from its example number), if known. */
export function mobileDigits(countryCode: string): number | null {
  const example = getExample(countryCode.toUpperCase(), 'mobile');
  return example.valid ? example.number.significant.length : null;
}

/** Why `mobile` is not a mobile number of the country, in words; null when it is one. */
export function mobileProblem(countryCode: string, mobile: string): string | null {
  const digits = mobile.trim();
  const country = countryByCode(countryCode);
  if (!/^\d+$/.test(digits)) return i18n.t('auth:signUp.mobileDigitsOnly');
  if (!country) return i18n.t('auth:signUp.chooseCountry');
  const parsed = parsePhoneNumber(digits, { regionCode: country.code });
  if (parsed.valid && (parsed.typeIsMobile || parsed.type === 'fixed-line-or-mobile')) return null;
  const expected = mobileDigits(country.code);
  if (expected !== null && (parsed.number?.significant ?? digits).length !== expected) {
    return i18n.t('auth:signUp.mobileLength', { country: countryName(country, i18n.language), digits: expected });
  }
  return i18n.t('auth:signUp.notMobile', { country: countryName(country, i18n.language), dialCode: country.dial_code });
}
