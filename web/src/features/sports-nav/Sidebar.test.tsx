import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubServer } from '../../testing/fake-server';
import { storeSession } from '../../testing/render';
import { QUICK_CASINO_GAMES } from './casino-games';
import { Sidebar } from './Sidebar';

const tree = [
  { sport_id: 7, name: 'Horse Racing', series: [{ series_id: 70, name: 'GB Racing', sport_id: 7 }] },
  { sport_id: 4339, name: 'Greyhound Racing', series: [] },
  { sport_id: 1, name: 'Football', series: [{ series_id: 10, name: 'English Premier League', sport_id: 1 }] },
  {
    sport_id: 4,
    name: 'Cricket',
    series: [
      { series_id: 40, name: 'Indian Premier League', sport_id: 4 },
      { series_id: 41, name: 'Big Bash League', sport_id: 4 },
    ],
  },
];

/** The in-house tables the server lists as on: every quick-launch one unless `off` names it. */
function casinoList(off: string[] = []) {
  return { data: QUICK_CASINO_GAMES.filter((g) => !off.includes(g.code)).map((g, i) => ({ match_id: i + 1, game_code: g.code, name: g.name, title: g.name, series_id: 'cards', image: '', rules: [] })) };
}

function renderSidebar(off: string[] = []) {
  storeSession();
  stubServer({
    'POST /api/casino/getCasinoList': casinoList(off),
    'GET /api/globalSetting/getGlobalSetting': { data: {} },
    'POST /api/series/getSeriesHeader': { data: tree },
    'POST /api/match/getMatches': (call) => ({
      data:
        (call.body as { series_id: number }).series_id === 40
          ? [{ match_id: 400, name: 'MI v CSK', match_name: 'MI v CSK', open_date: '2026-11-22T14:00:00Z', sport_id: 4, sport_name: 'Cricket' }]
          : [],
    }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Sidebar />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('sidebar', () => {
  it("lists the 16 'Others' casino games in the spec's order", async () => {
    renderSidebar();
    await within(screen.getByTestId('sidebar-others')).findByText('TP T20');
    const names = within(screen.getByTestId('sidebar-others')).getAllByRole('link').map((a) => a.textContent);
    expect(names).toEqual([
      'TP T20', 'TP 1 DAY', 'TP TEST', 'DT 1 DAY', 'TP 2 Card', 'HILOW', 'POKER', 'QUEEN', 'BACCARAT',
      'AMAR AKBAR ANTHONEY', 'BOLLYWOOD', 'TRIO', 'ANDAR BAHAR', 'MUFLIS TP', 'ROULETTE', 'WORLI MATAKA',
    ]);
  });

  it('leaves out a table the operator switched off (issue 28)', async () => {
    renderSidebar(['dt6']);
    const others = screen.getByTestId('sidebar-others');
    await within(others).findByText('TP T20');
    expect(within(others).getAllByRole('link')).toHaveLength(15);
    expect(within(others).queryByText('DT 1 DAY')).not.toBeInTheDocument();
  });

  it('lists sports cricket first without horse and greyhound racing, and stores the tree as testData', async () => {
    renderSidebar();
    const sports = await screen.findAllByTestId('sidebar-sport');
    expect(sports.map((s) => s.textContent)).toEqual(['Cricket', 'Football']);
    expect(JSON.parse(localStorage.getItem('testData')!)).toHaveLength(4);
  });

  it('opens one sport and one series at a time; tapping the open one closes it; a match opens game-details', async () => {
    renderSidebar();
    const user = userEvent.setup();
    const [cricket, football] = await screen.findAllByTestId('sidebar-sport');

    await user.click(cricket);
    expect(screen.getAllByTestId('sidebar-series').map((s) => s.textContent)).toEqual(['Indian Premier League', 'Big Bash League']);

    await user.click(football);
    expect(cricket).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByTestId('sidebar-series').map((s) => s.textContent)).toEqual(['English Premier League']);

    await user.click(football);
    expect(screen.queryAllByTestId('sidebar-series')).toHaveLength(0);

    await user.click(cricket);
    const [ipl, bbl] = screen.getAllByTestId('sidebar-series');
    await user.click(ipl);
    const match = await screen.findByTestId('sidebar-match');
    expect(match).toHaveTextContent('MI v CSK');
    expect(match).toHaveAttribute('href', '/game-details/4/400');

    await user.click(bbl);
    expect(ipl).toHaveAttribute('aria-expanded', 'false');
    expect(await screen.findByText('No matches')).toBeInTheDocument();
    expect(screen.queryByTestId('sidebar-match')).toBeNull();

    await user.click(bbl);
    expect(screen.queryByText('No matches')).toBeNull();
  });
});
