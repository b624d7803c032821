// The site rules, written for bettors. One tab per sport or market group (spec §2); every
// constant of spec §9 is stated where it applies. Teenpatti has no rules text yet.
//
// The texts live in the `rules` catalogue, one per rule, under `tabs.<tab id>` (locales/en and
// locales/hi rules.json), so that each language holds the whole of them; this module holds what
// is not words: the tabs' order and which sections are numbered. In English the tabs keep the
// spec's names as it spells them (Vollyball, Fustal).

export interface RulesSection {
  heading?: string;
  /** Shown as a numbered list when true, else as bullet points. */
  numbered?: boolean;
  items: string[];
}

export interface RulesTab {
  id: string;
  title: string;
  sections: RulesSection[];
}

/** The tabs in the spec's order: each id is a key of `rules:tabs`. */
export const RULES_TAB_IDS = [
  'horse-racing',
  'handball',
  'table-tennis',
  'basketball',
  'volleyball',
  'ice-hockey',
  'football',
  'tennis',
  'snooker',
  'e-games',
  'futsal',
  'big-bash-league',
  'lunch-favourite',
  'politics',
  'bookmaker',
  'teenpatti',
  'cricket-casino',
  'fancy-market-1',
  'football-fancy',
  'ipl',
  'kabaddi',
  'world-cup',
  'khado',
  'election',
  'fancy',
  'match',
  'binary',
] as const;

export type RulesTabId = (typeof RULES_TAB_IDS)[number];

/**
 * A tab's words as the catalogue holds them (`rules:tabs.<id>`): its sections and each section's
 * rules keyed by their number from 1, so that a rule can cite another by its number (Fancy's 15
 * cites 14) and the Hindi text is held to the same rules.
 */
export interface RulesTabText {
  title: string;
  sections: Readonly<Record<string, { heading?: string; rules: Readonly<Record<string, string>> }>>;
}

/** Sections shown as a numbered list, by tab and section number: Fancy's general rules cite each other by number. */
const NUMBERED_SECTIONS: Partial<Record<RulesTabId, readonly string[]>> = { fancy: ['1'] };

/** Entries of a record keyed by numbers from 1, in their numbers' order. */
function byNumber<T>(record: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => Number(a) - Number(b));
}

/** The tabs in order, in the language `texts` (the catalogue's `rules:tabs`) is written in. */
export function rulesTabs(texts: Readonly<Record<RulesTabId, RulesTabText>>): RulesTab[] {
  return RULES_TAB_IDS.map((id) => ({
    id,
    title: texts[id].title,
    sections: byNumber(texts[id].sections).map(([number, section]) => ({
      heading: section.heading,
      numbered: NUMBERED_SECTIONS[id]?.includes(number) ?? false,
      items: byNumber(section.rules).map(([, rule]) => rule),
    })),
  }));
}

/** A section of the catalogue (heading and numbered rules) as shown. */
export function rulesSection(text: { heading?: string; rules: Readonly<Record<string, string>> }): RulesSection {
  return { heading: text.heading, items: byNumber(text.rules).map(([, rule]) => rule) };
}
