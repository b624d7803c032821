import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resources, setLanguage } from '../../i18n';
import { stubServer } from '../../testing/fake-server';
import { storeSession } from '../../testing/render';
import { RulesTabs } from './RulesTabs';
import { rulesTabFor } from './topic';
import { catalogueTexts } from '../../testing/catalogue';

/** Spec §2's rules tabs, in its order (its spellings included). */
const SPEC_TABS = [
  'Horse Racing', 'Handball', 'Table Tennis', 'Basketball', 'Vollyball', 'Ice Hockey', 'Football', 'Tennis', 'Snooker', 'E-Games',
  'Fustal', 'Big Bash League', 'Lunch Favourite', 'Politics', 'Bookmaker', 'Teenpatti', 'CricketCasino', 'Fancy Market 1',
  'Football Fancy', 'IPL', 'Kabaddi', 'World Cup', 'Khado', 'Election', 'Fancy', 'Match', 'Binary',
];

function renderTabs() {
  stubServer({
    'POST /api/casino/getCasinoList': {
      data: [
        { match_id: 1, game_code: 'teen20', name: 'TP T20', title: 'Teen Patti T20', rules: ['Player A and Player B pay 1.98. House edge 1.00%.'] },
        { match_id: 4, game_code: 'dt6', name: 'DT 1 DAY', title: 'Dragon Tiger 1 Day', rules: ['Tie pays 16.50. House edge 2.94%.'] },
      ],
    },
  });
  storeSession();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <RulesTabs />
    </QueryClientProvider>,
  );
}

describe('the rules tabs', () => {
  it("keep the spec's tabs in order, with one Casino tab at the end", () => {
    renderTabs();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([...SPEC_TABS, 'Casino']);
  });

  it('leave Teenpatti empty and show each casino game\'s rules under Casino', async () => {
    renderTabs();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Teenpatti' }));
    expect(within(screen.getByTestId('rules-panel')).getByText('No records Found')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Casino' }));
    const panel = screen.getByTestId('rules-panel');
    expect(await within(panel).findByRole('heading', { name: 'Teen Patti T20 (TP T20)' })).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: 'Dragon Tiger 1 Day (DT 1 DAY)' })).toBeInTheDocument();
    expect(within(panel).getByText('Tie pays 16.50. House edge 2.94%.')).toBeInTheDocument();
  });
});

describe('the tab a topic opens on', () => {
  it("is a market's own (Bookmaker, Fancy), else its sport's, else Match for match odds; the spec's spellings reach their tabs", () => {
    expect(rulesTabFor({ sportId: 4, sportName: 'Cricket', marketType: 'bookmaker' })).toBe('bookmaker');
    expect(rulesTabFor({ sportId: 4, marketType: 'fancy' })).toBe('fancy');
    expect(rulesTabFor({ sportId: 4, sportName: 'Cricket', marketType: 'match_odds' })).toBe('match');
    expect(rulesTabFor({ sportId: 7, marketType: 'win' })).toBe('horse-racing');
    expect(rulesTabFor({ sportId: 4339, marketType: 'place' })).toBe('horse-racing');
    expect(rulesTabFor({ sportId: 1, sportName: 'Football' })).toBe('football');
    // An operator's own sport, known by its name, the spec's spelling too.
    expect(rulesTabFor({ sportId: 90001, sportName: 'Volleyball' })).toBe('volleyball');
    expect(rulesTabFor({ sportId: 90002, sportName: 'Fustal' })).toBe('futsal');
    expect(rulesTabFor({ sportId: 90003, sportName: 'Curling', marketType: 'match_odds' })).toBe('match');
    expect(rulesTabFor({ sportId: 90003, sportName: 'Curling' })).toBeNull();
    expect(rulesTabFor(null)).toBeNull();
  });

  it('opens on the tab asked for, saying the market\'s commission; an unknown tab opens the first', () => {
    stubServer({ 'POST /api/casino/getCasinoList': { data: [] } });
    storeSession();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { unmount } = render(
      <QueryClientProvider client={client}>
        <RulesTabs initialTab="bookmaker" market={{ name: 'Bookmaker', commissionBp: 250 }} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('tab', { selected: true })).toHaveTextContent('Bookmaker');
    expect(screen.getByTestId('rules-commission')).toHaveTextContent('Bookmaker: commission 2.5% of your net winnings');
    unmount();
    render(
      <QueryClientProvider client={client}>
        <RulesTabs initialTab="no-such-tab" />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('tab', { selected: true })).toHaveTextContent('Horse Racing');
    expect(screen.queryByTestId('rules-commission')).toBeNull();
  });
});

describe('the rules in Hindi', () => {
  it('name every tab and say every rule in Hindi, the market and the games\' own rules as the server sends them', async () => {
    setLanguage('hi');
    const stub = { 'POST /api/casino/getCasinoList': { data: [{ match_id: 4, game_code: 'dt6', name: 'DT 1 DAY', title: 'Dragon Tiger 1 Day', rules: ['Tie pays 16.50.'] }] } };
    stubServer(stub);
    storeSession();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <RulesTabs initialTab="fancy" market={{ name: 'BM Special', commissionBp: 250 }} />
      </QueryClientProvider>,
    );
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent ?? '');
    expect(tabs).toHaveLength(SPEC_TABS.length + 1);
    expect(tabs).toContain('हॉर्स रेसिंग');
    expect(tabs.filter((name) => SPEC_TABS.includes(name) || name === 'Casino')).toEqual([]);
    expect(screen.getByRole('tab', { selected: true })).toHaveTextContent('फैंसी');
    expect(screen.getByTestId('rules-commission')).toHaveTextContent('BM Special: इस मार्केट पर आपकी शुद्ध जीत का 2.5% कमीशन');

    // Every tab's panel: its heading and rules are Hindi, none of the English catalogue's texts
    // (the market's name is the server's, chosen here to be none of them).
    // Format names read the same in Hindi (ODI, T20, CPL) and are left out.
    const english = catalogueTexts(resources.en.rules).filter((text) => !text.includes('{{') && !/^[A-Z0-9]+$/.test(text));
    const user = userEvent.setup();
    for (const tab of screen.getAllByRole('tab')) {
      await user.click(tab);
      const panel = screen.getByTestId('rules-panel');
      if (tab.textContent === 'कैसीनो') await within(panel).findByText('Tie pays 16.50.');
      const shown = panel.textContent ?? '';
      expect(english.filter((text) => shown.includes(text))).toEqual([]);
      expect(shown).toMatch(/[\u0900-\u097F]/);
    }
    expect(within(screen.getByTestId('rules-panel')).getByRole('heading', { name: 'सभी कैसीनो गेम्स' })).toBeInTheDocument();
  });
});
