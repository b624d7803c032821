import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

describe('casino list', () => {
  it("shows the server's categories in its order, World Casino once and opening the world casino", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getCasinoSport': {
        data: [
          { sport_id: 'livecasino', name: 'Live Casino', is_active: 1, order: 1 },
          { sport_id: 'worldcasino', name: 'World Casino', is_active: 1, order: 2 },
          { sport_id: 'crash', name: 'Crash Games', is_active: 1, order: 3 },
        ],
      },
      'POST /api/casino/getCasinoList': { data: [] },
    });
    storeSession();
    renderApp('/casino/list');

    const tabs = await screen.findAllByTestId('casino-category');
    expect(tabs.map((t) => t.textContent)).toEqual(['Live Casino', 'World Casino', 'Crash Games']);
    const nav = screen.getByRole('navigation', { name: 'Casino categories' });
    expect(within(nav).getAllByText('World Casino')).toHaveLength(1);
    expect(tabs[1]).toHaveAttribute('href', '#/world-casino');
    expect(tabs[2]).toHaveAttribute('href', '#/casino/list/crash');
  });
});
