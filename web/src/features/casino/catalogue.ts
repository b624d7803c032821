import type { StaticGame } from './api';

/** The world-casino categories of the spec, in its order; 'All' shows every category. */
export const CATEGORIES = ['All', 'Crash Games', 'Live Game Shows', 'Live', 'Poker', 'Virtual', 'Live Dealer'] as const;

export type Category = (typeof CATEGORIES)[number];

/** Each category's key under `casino:world.category` (the value stays the catalogue's English name, which the server sends). */
export const CATEGORY_KEY = {
  All: 'all',
  'Crash Games': 'crashGames',
  'Live Game Shows': 'liveGameShows',
  Live: 'live',
  Poker: 'poker',
  Virtual: 'virtual',
  'Live Dealer': 'liveDealer',
} as const satisfies Record<Category, string>;

export interface CatalogueFilter {
  category: string;
  provider: string;
  /** Free text matched against the game's name and provider names, ignoring case and spacing. */
  query: string;
}

const folded = (text: string | undefined) => (text ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

/** The games a bettor can launch (status ACTIVE) that pass the category, provider and search filters. */
export function shownGames(games: readonly StaticGame[], filter: CatalogueFilter): StaticGame[] {
  const query = folded(filter.query);
  return games.filter(
    (g) =>
      g.status === 'ACTIVE' &&
      (filter.category === 'All' || g.category === filter.category) &&
      (filter.provider === 'All' || g.provider_name === filter.provider) &&
      (query === '' || [g.game_name, g.provider_name, g.sub_provider_name].some((text) => folded(text).includes(query))),
  );
}

/**
 * 'All', then the spec's categories that hold at least one active game of `provider` ('All': of
 * any provider), in the spec's order: a tab never opens onto an empty lobby.
 */
export function categoriesOf(games: readonly StaticGame[], provider: string): Category[] {
  const present = new Set(games.filter((g) => g.status === 'ACTIVE' && (provider === 'All' || g.provider_name === provider)).map((g) => g.category));
  return CATEGORIES.filter((c) => c === 'All' || present.has(c));
}

/** The server's `sub_type` of the built-in provider's games: dealt by the computer at the stake, one player at a time. */
export const INSTANT_SUB_TYPE = 'instant';

/** True for a computer-dealt game (the built-in provider's), which the lobby marks as such rather than passing it off as live. */
export function isInstant(game: StaticGame): boolean {
  return game.sub_type === INSTANT_SUB_TYPE;
}

/** The tile's provider line: the provider, and the studio under it when the provider names one. */
export function providerLine(game: StaticGame): string {
  const sub = game.sub_provider_name?.trim();
  return sub && sub !== game.provider_name ? `${game.provider_name} · ${sub}` : game.provider_name;
}

/** 'All' and each provider of an active game, once, in catalogue order. */
export function providersOf(games: readonly StaticGame[]): string[] {
  return ['All', ...new Set(games.filter((g) => g.status === 'ACTIVE').map((g) => g.provider_name).filter(Boolean))];
}
