// Sport ordering and filtering (spec §3).

export const CRICKET_ID = 4;
export const FOOTBALL_ID = 1;
export const TENNIS_ID = 2;
export const HORSE_RACING_ID = 7;
export const GREYHOUND_RACING_ID = 4339;
/** Promoted to the front, right after cricket. */
export const PROMOTED_ID = 2378961;
/** The Indian casino flag: not a sport tab. */
export const INDIAN_CASINO_ID = -1;
/** Hidden everywhere. */
export const HIDDEN_ID = -17;

export const RACING_IDS = new Set([HORSE_RACING_ID, GREYHOUND_RACING_ID]);

interface Ordered {
  sport_id: number;
  order?: number;
}

/** Cricket first, then the promoted sport, then the rest in the server's order. */
export function orderSports<T extends Ordered>(sports: T[]): T[] {
  const rank = (s: T) => (s.sport_id === CRICKET_ID ? 0 : s.sport_id === PROMOTED_ID ? 1 : 2);
  return [...sports].sort((a, b) => rank(a) - rank(b) || (a.order ?? 0) - (b.order ?? 0));
}

/** Top navigation: every active sport except -1 (and the hidden -17). */
export function topNavSports<T extends Ordered & { is_active?: number }>(sports: T[]): T[] {
  return orderSports(
    sports.filter((s) => s.sport_id !== INDIAN_CASINO_ID && s.sport_id !== HIDDEN_ID && (s.is_active ?? 1) !== 0),
  );
}

/** Sidebar "All Sports": horse and greyhound racing removed (they have their own page), -1 and -17 too. */
export function sidebarSports<T extends Ordered>(sports: T[]): T[] {
  return orderSports(
    sports.filter((s) => !RACING_IDS.has(s.sport_id) && s.sport_id !== HIDDEN_ID && s.sport_id !== INDIAN_CASINO_ID),
  );
}

/** Where a sport's tab leads: racing to its own page, the rest to the sport's match list. */
export function sportPath(sportId: number): string {
  return RACING_IDS.has(sportId) ? `/horse-racing?sport_id=${sportId}` : `/all-sports/${sportId}`;
}
