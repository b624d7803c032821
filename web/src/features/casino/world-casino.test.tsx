import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

const staticGame = (game_id: string, game_name: string, category: string, provider_name: string, extra: Record<string, unknown> = {}) => ({
  game_id,
  game_name,
  category,
  provider_name,
  sub_provider_name: '',
  status: 'ACTIVE',
  url_thumb: '',
  game_code: game_id,
  sub_type: null,
  ...extra,
});

const GAMES = [
  staticGame('backlay-dt1day', 'Dragon Tiger Instant', 'Virtual', 'Backlay Games', { sub_type: 'instant', url_thumb: '/casino/art/dt1day.svg' }),
  staticGame('backlay-teen20', 'Teen Patti T20 Instant', 'Virtual', 'Backlay Games', { sub_type: 'instant', url_thumb: '/casino/art/teen20.svg' }),
  staticGame('evo-lightning', 'Lightning Roulette', 'Live', 'Evolution', { sub_provider_name: 'Evolution Live' }),
  staticGame('spribe-aviator', 'Aviator', 'Crash Games', 'Spribe', { status: '' }),
];

describe('world-casino lobby', () => {
  it("tabs only the categories that hold a game, names each tile's provider and marks the computer-dealt games", async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'GET /api/casino/getStaticGames': { data: GAMES } });
    storeSession();
    renderApp('/world-casino');
    const user = userEvent.setup();

    const grid = await screen.findByTestId('world-casino-games');
    const tabs = within(screen.getByRole('tablist', { name: 'Categories' })).getAllByRole('tab');
    // Aviator is switched off, so Crash Games has nothing to open onto; no tab is empty.
    expect(tabs.map((t) => t.textContent)).toEqual(['All', 'Live', 'Virtual']);

    const tiles = within(grid).getAllByRole('button');
    expect(tiles).toHaveLength(3);
    const tile = (name: string) => tiles.find((t) => t.textContent?.includes(name))!;
    expect(within(tile('Dragon Tiger Instant')).getByTestId('game-tile-provider')).toHaveTextContent('Backlay Games');
    expect(within(tile('Dragon Tiger Instant')).getByTestId('instant-badge')).toHaveTextContent(/instant.*computer-dealt/i);
    expect(tile('Dragon Tiger Instant').querySelector('img')).toHaveAttribute('src', '/casino/art/dt1day.svg');
    expect(within(tile('Lightning Roulette')).getByTestId('game-tile-provider')).toHaveTextContent('Evolution · Evolution Live');
    expect(within(tile('Lightning Roulette')).queryByTestId('instant-badge')).toBeNull();

    await user.click(tabs[1]);
    expect(within(screen.getByTestId('world-casino-games')).getAllByRole('button').map((t) => t.textContent)).toEqual([
      expect.stringContaining('Lightning Roulette'),
    ]);
  });
});
