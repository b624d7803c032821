import type { StaticGame } from './api';

/** The world-casino categories of the spec, in its order; 'All' shows every category. */
export const CATEGORIES = ['All', 'Crash Games', 'Live Game Shows', 'Live', 'Poker', 'Virtual', 'Live Dealer'] as const;

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

/** 'All' and each provider of an active game, once, in catalogue order. */
export function providersOf(games: readonly StaticGame[]): string[] {
  return ['All', ...new Set(games.filter((g) => g.status === 'ACTIVE').map((g) => g.provider_name).filter(Boolean))];
}
