import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

function game(match_id: number, game_code: string, name: string, image: string) {
  return { match_id, game_code, name, title: name, series_id: 'cardgames', image, rules: [] };
}

describe('casino list', () => {
  it("shows the server's categories in its order, World Casino once and opening the world casino", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getCasinoSport': {
        data: [
          { sport_id: 'cardgames', name: 'Card Games', is_active: 1, order: 1 },
          { sport_id: 'worldcasino', name: 'World Casino', is_active: 1, order: 2 },
          { sport_id: 'crash', name: 'Crash Games', is_active: 1, order: 3 },
        ],
      },
      'POST /api/casino/getCasinoList': { data: [] },
    });
    storeSession();
    renderApp('/casino/list');

    const tabs = await screen.findAllByTestId('casino-category');
    expect(tabs.map((t) => t.textContent)).toEqual(['Card Games', 'World Casino', 'Crash Games']);
    const nav = screen.getByRole('navigation', { name: 'Casino categories' });
    expect(within(nav).getAllByText('World Casino')).toHaveLength(1);
    expect(tabs[1]).toHaveAttribute('href', '#/world-casino');
    expect(tabs[2]).toHaveAttribute('href', '#/casino/list/crash');
    expect(within(nav).getByRole('link', { name: 'Mac88' })).toHaveAttribute('href', '#/casino/mac88');
  });

  it("shows each game's image over its name, and the name's letters when there is none or it fails", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getCasinoSport': { data: [{ sport_id: 'cardgames', name: 'Card Games', is_active: 1, order: 1 }] },
      'POST /api/casino/getCasinoList': {
        data: [
          game(4, 'dt6', 'DT 1 DAY', '/casino/art/dt1day.svg'),
          game(13, 'ab20', 'ANDAR BAHAR', '/upload/image/my-andar-bahar.png'),
          game(6, 'hilow', 'HILOW', ''),
        ],
      },
    });
    storeSession();
    renderApp('/casino/list/cardgames');

    const tiles = within(await screen.findByTestId('casino-games')).getAllByRole('link');
    expect(tiles.map((t) => t.textContent)).toEqual(['DT 1 DAY', 'ANDAR BAHAR', 'HIHILOW']);
    // The picture is decorative: the link is named by the game's name alone.
    expect(tiles[0]).toHaveAccessibleName('DT 1 DAY');
    expect(tiles[0]).toHaveAttribute('href', '#/casino/match/4');
    const art = tiles[0].querySelector('img');
    expect(art).toHaveAttribute('src', '/casino/art/dt1day.svg');
    expect(art).toHaveAttribute('alt', '');
    expect(tiles[1].querySelector('img')).toHaveAttribute('src', '/upload/image/my-andar-bahar.png');
    expect(tiles[2].querySelector('img')).toBeNull();
    expect(within(tiles[2]).getByText('HI')).toHaveAttribute('aria-hidden', 'true');

    // An image that does not load leaves the letters, not a broken picture.
    fireEvent.error(tiles[1].querySelector('img')!);
    expect(tiles[1].querySelector('img')).toBeNull();
    expect(tiles[1]).toHaveTextContent('ANANDAR BAHAR');
    expect(tiles[1]).toHaveAccessibleName('ANDAR BAHAR');
  });
});
