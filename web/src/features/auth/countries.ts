// Country dial codes for the sign-up form, from the maintained `countries-list` package
// (about 250 countries, ISO 3166-1 two-letter codes), India first.
import { countries, getEmojiFlag, type TCountryCode } from 'countries-list';

export interface Country {
  name: string;
  flag: string;
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** e.g. "+91". */
  dial_code: string;
}

export const DEFAULT_COUNTRY_CODE = 'IN';

function build(): Country[] {
  const list = (Object.keys(countries) as TCountryCode[])
    .filter((code) => countries[code].phone.length > 0)
    .map((code) => ({
      name: countries[code].name,
      flag: getEmojiFlag(code),
      code,
      dial_code: `+${countries[code].phone[0]}`,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const india = list.findIndex((c) => c.code === DEFAULT_COUNTRY_CODE);
  if (india > 0) list.unshift(...list.splice(india, 1));
  return list;
}

export const COUNTRIES: Country[] = build();

/** The country's name in the language shown: the list's English name, or the browser's own Hindi name for it. */
export function countryName(country: Country, language: string): string {
  if (language === 'en') return country.name;
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(country.code) ?? country.name;
  } catch {
    return country.name;
  }
}

export function countryByCode(code: string | null | undefined): Country | undefined {
  const upper = code?.toUpperCase();
  return COUNTRIES.find((c) => c.code === upper);
}
