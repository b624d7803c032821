// The client app's words in English and Hindi (issue 32, item 8), through i18next, the maintained
// library for it. Each area of the app keeps its own namespace (a JSON file per language under
// locales/) so that a change to one screen's words touches one file. English is the source: the
// `en` files' keys are the types every `t()` call is checked against (see i18next.d.ts), and a
// unit test holds the `hi` files to the same keys.
//
// Money and dates are not words: lib/format.ts writes them in the Indian format (₹1,00,000.00,
// dd/MM/yyyy at IST) in both languages, so nothing here formats a number.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAuth from './locales/en/auth.json';
import enBetting from './locales/en/betting.json';
import enCasino from './locales/en/casino.json';
import enCommon from './locales/en/common.json';
import enHeader from './locales/en/header.json';
import enMatches from './locales/en/matches.json';
import enNotices from './locales/en/notices.json';
import enReports from './locales/en/reports.json';
import enRules from './locales/en/rules.json';
import enSafety from './locales/en/safety.json';
import enSettings from './locales/en/settings.json';
import hiAuth from './locales/hi/auth.json';
import hiBetting from './locales/hi/betting.json';
import hiCasino from './locales/hi/casino.json';
import hiCommon from './locales/hi/common.json';
import hiHeader from './locales/hi/header.json';
import hiMatches from './locales/hi/matches.json';
import hiNotices from './locales/hi/notices.json';
import hiReports from './locales/hi/reports.json';
import hiRules from './locales/hi/rules.json';
import hiSafety from './locales/hi/safety.json';
import hiSettings from './locales/hi/settings.json';

export const resources = {
  en: {
    common: enCommon,
    auth: enAuth,
    header: enHeader,
    betting: enBetting,
    casino: enCasino,
    matches: enMatches,
    notices: enNotices,
    reports: enReports,
    rules: enRules,
    safety: enSafety,
    settings: enSettings,
  },
  hi: {
    common: hiCommon,
    auth: hiAuth,
    header: hiHeader,
    betting: hiBetting,
    casino: hiCasino,
    matches: hiMatches,
    notices: hiNotices,
    reports: hiReports,
    rules: hiRules,
    safety: hiSafety,
    settings: hiSettings,
  },
} as const;

export type Language = keyof typeof resources;
export const LANGUAGES: readonly { code: Language; label: string }[] = [
  // Each language is named in itself, so a bettor who cannot read the other finds their own.
  { code: 'en', label: 'English' },
  { code: 'hi', label: 'हिन्दी' },
];

/** localStorage: the bettor's chosen language. Kept across log-outs (it is the device's, not the session's). */
export const LANGUAGE_KEY = 'language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'hi' ? 'hi' : 'en';
  } catch {
    return 'en';
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en),
  // React escapes what it renders; escaping here too would show &amp; for &.
  interpolation: { escapeValue: false },
  // Resources are bundled, so initialisation is synchronous and the first render has its words.
  initAsync: false,
  returnNull: false,
});
document.documentElement.lang = i18n.language;

/** Switches the app's language at once (every mounted `useTranslation` re-renders) and remembers it. */
export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  return i18n.language === 'hi' ? 'hi' : 'en';
}

export { i18n };
