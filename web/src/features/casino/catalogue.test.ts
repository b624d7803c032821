import { describe, expect, it } from 'vitest';
import type { StaticGame } from './api';
import { categoriesOf, isInstant, providerLine, providersOf, shownGames } from './catalogue';

const game = (
  game_id: string,
  game_name: string,
  category: string,
  provider_name: string,
  status = 'ACTIVE',
  sub_provider_name = '',
  sub_type: string | null = null,
): StaticGame => ({
  game_id,
  game_name,
  category,
  provider_name,
  sub_provider_name,
  status,
  game_code: game_id,
  sub_type,
  url_thumb: '',
});

const GAMES = [
  game('1', 'Lightning  Baccarat', 'Live Dealer', 'Backlay', 'ACTIVE', 'Backlay Live'),
  game('2', 'Teen Patti T20', 'Poker', 'Backlay'),
  game('3', 'Old Roulette', 'Live', 'Backlay', ''),
  game('4', 'Aviator', 'Crash Games', 'Spribe'),
];
const ALL = { category: 'All', provider: 'All', query: '' };
const names = (games: StaticGame[]) => games.map((g) => g.game_name);

describe('world-casino catalogue filters', () => {
  it('never shows a game whose status is not ACTIVE', () => {
    expect(names(shownGames(GAMES, ALL))).toEqual(['Lightning  Baccarat', 'Teen Patti T20', 'Aviator']);
  });

  it('filters by category and by provider', () => {
    expect(names(shownGames(GAMES, { ...ALL, category: 'Poker' }))).toEqual(['Teen Patti T20']);
    expect(names(shownGames(GAMES, { ...ALL, provider: 'Spribe' }))).toEqual(['Aviator']);
    expect(shownGames(GAMES, { ...ALL, category: 'Virtual' })).toEqual([]);
  });

  it('searches names and providers ignoring case and repeated spaces', () => {
    expect(names(shownGames(GAMES, { ...ALL, query: 'lightning baccarat' }))).toEqual(['Lightning  Baccarat']);
    expect(names(shownGames(GAMES, { ...ALL, query: '  TEEN ' }))).toEqual(['Teen Patti T20']);
    expect(names(shownGames(GAMES, { ...ALL, query: 'backlay live' }))).toEqual(['Lightning  Baccarat']);
    expect(names(shownGames(GAMES, { ...ALL, query: 'roulette' }))).toEqual([]);
  });

  it('lists each active provider once', () => {
    expect(providersOf(GAMES)).toEqual(['All', 'Backlay', 'Spribe']);
  });

  it('offers a category tab only where an active game is, All always, in the spec order', () => {
    expect(categoriesOf(GAMES, 'All')).toEqual(['All', 'Crash Games', 'Poker', 'Live Dealer']);
    // Old Roulette is switched off, so Live has nothing to show.
    expect(categoriesOf(GAMES, 'All')).not.toContain('Live');
    expect(categoriesOf(GAMES, 'Spribe')).toEqual(['All', 'Crash Games']);
    expect(categoriesOf([], 'All')).toEqual(['All']);
  });

  it('tells the computer-dealt games by their sub_type, and names provider and studio', () => {
    const instant = game('backlay-dt1day', 'Dragon Tiger Instant', 'Virtual', 'Backlay Games', 'ACTIVE', '', 'instant');
    expect(isInstant(instant)).toBe(true);
    expect(GAMES.some(isInstant)).toBe(false);
    expect(providerLine(instant)).toBe('Backlay Games');
    expect(providerLine(GAMES[0])).toBe('Backlay · Backlay Live');
  });
});
