// The casino in Hindi (issue 32, item 8): a table with an open bet, its slip and last results,
// and a round's provably-fair page, read in Hindi, show Hindi words and none of the casino
// catalogue's English texts. Server data (game, market and seat names, the game's rules) stays
// as the server sends it, so the fixtures use names that are not words of the catalogue.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resources, setLanguage } from '../../i18n';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import type { RoundDetail, RoundState } from './table-api';
import { catalogueTexts } from '../../testing/catalogue';

const ROUND = 'dt1day-1795356000000';
const SEED_5A = '5a'.repeat(32);
const COMMITMENT_5A = '60bf07c488aad18fda339df07e4fbc47b4f00be71711936f18d04d352ad01890';

/** The casino catalogue's English texts that read as words on a screen (no placeholders or tags). */
function englishTexts(): string[] {
  return catalogueTexts(resources.en.casino).filter((text) => !/[{<]/.test(text) && /[a-z]{3}/.test(text));
}

/**
 * The catalogue's English texts found in `element`'s text, its aria-labels, titles and
 * placeholders. A list's options are left out: the games' names (Bollywood Casino, Poker) are
 * names, the same in both languages.
 */
function englishIn(shownElement: HTMLElement): string[] {
  const element = shownElement.cloneNode(true) as HTMLElement;
  element.querySelectorAll('option').forEach((option) => option.remove());
  const labels = [...element.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((e) => ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a) ?? ''));
  const shown = [element.textContent ?? '', ...labels].join('\n');
  return englishTexts().filter((text) => shown.includes(text.trim()));
}

function table(): RoundState {
  return {
    match_id: 4,
    game_code: 'dt6',
    game: 'dt1day',
    name: 'DT 1 DAY',
    title: 'Dragon Tiger 1 Day',
    round_id: ROUND,
    status: 'betting',
    seconds_left: 18,
    close_in_ms: 17_500,
    close_at: '2026-11-22T14:00:30.000Z',
    server_time: '2026-11-22T14:00:12.000Z',
    commitment: COMMITMENT_5A,
    cards: [],
    dealing: null,
    next_round_in_ms: 0,
    deal: null,
    result: null,
    winner: null,
    seed: null,
    markets: [
      { code: 'dragon', name: 'Dragon', family: 'dragon-tiger', odds: '2.00', price: 2, suspended: false },
      { code: 'tiger', name: 'Tiger', family: 'dragon-tiger', odds: '2.00', price: 2, suspended: false },
    ],
    my_bets: [{ bet_id: 31, round_id: ROUND, match_id: 4, game_code: 'dt6', game_name: 'Dragon Tiger 1 Day', market: 'tiger', market_name: 'Tiger', odds: '2.00', stake: 100, payout: null, status: 'open', date: '2026-11-22T14:00:10.000Z' }],
    last_results: [{ round_id: 'dt1day-1795355960000', winner: 'Tiger', date: '2026-11-22T13:59:55.000Z' }],
  };
}

describe('the casino in Hindi', () => {
  it('shows a table, its slip, the bets and the last results in Hindi', async () => {
    setLanguage('hi');
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/casino/roundState': { data: table() },
      'POST /api/casino/getCasinoList': { data: [{ match_id: 4, game_code: 'dt6', name: 'DT 1 DAY', title: 'Dragon Tiger 1 Day', series_id: 'livecasino', image: '', rules: ['Dragon 2.00; Tiger 2.00.'] }] },
      'GET /api/user/getButtonValue': { data: JSON.stringify([{ button_name: 'C100', button_value: 100, type: 'Casino' }]) },
    });
    storeSession();
    renderApp('/casino/match/dt6');

    await screen.findByTestId('casino-countdown');
    const page = screen.getByTestId('casino-table');
    expect(screen.getByTestId('casino-status')).toHaveTextContent('बेटिंग');
    expect(page).toHaveTextContent(/बेटिंग 1[78] सेकंड में बंद होगी/);
    expect(page).toHaveTextContent('इस राउंड की मेरी बेट्स');
    expect(screen.getByTestId('casino-my-bet-status')).toHaveTextContent('खुली');
    expect(screen.getByRole('navigation', { name: 'पिछले नतीजे' })).toBeInTheDocument();
    expect(screen.getByTestId('casino-last-result')).toHaveAttribute('aria-label', 'राउंड dt1day-1795355960000: Tiger');
    expect(page).not.toHaveTextContent('Betting closes in');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('casino-market-dragon'));
    const slip = screen.getByTestId('casino-slip');
    expect(within(slip).getByTestId('casino-place-bet')).toHaveTextContent('बेट लगाएँ');
    await user.click(within(slip).getByTestId('casino-place-bet'));
    expect(screen.getByTestId('casino-slip-error')).toHaveTextContent('स्टेक डालें।');
    expect(englishIn(page)).toEqual([]);
  });

  it("shows a round's fairness check in Hindi, verdicts included", async () => {
    setLanguage('hi');
    const detail: RoundDetail = {
      round_id: ROUND,
      match_id: 4,
      game_code: 'dt6',
      name: 'DT 1 DAY',
      title: 'Dragon Tiger 1 Day',
      game: 'dt1day',
      phase: 'settled',
      commitment: COMMITMENT_5A,
      seed: SEED_5A,
      verified: true,
      deal: { cards: ['2D', 'KC'] },
      result: { winner: 'Tiger', hands: [{ name: 'Dragon', cards: ['2D'], description: '2' }, { name: 'Tiger', cards: ['KC'], description: '13' }] },
      cards: ['2D', 'KC'],
      winner: 'Tiger',
      opened_at: '2026-11-22T14:00:00.000Z',
      close_at: '2026-11-22T14:00:30.000Z',
      settled_at: '2026-11-22T14:00:31.000Z',
    };
    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/casino/round': { data: detail } });
    storeSession();
    renderApp(`/casino/round/${ROUND}`);

    const page = await screen.findByTestId('casino-round-page');
    await waitFor(() => expect(screen.getByTestId('deal-check')).toHaveAttribute('data-state', 'mismatch'));
    expect(screen.getByTestId('commitment-check')).toHaveTextContent('✓ कमिटमेंट मेल खाता है');
    // The seed deals 2D QC; the round claims KC second: the difference is said in Hindi too.
    expect(screen.getByTestId('deal-check')).toHaveTextContent('✗ डील मेल नहीं खाती: पत्ता 2: सीड QC बाँटता है, राउंड KC दिखाता है।');
    expect(screen.getByTestId('fairness-steps')).toHaveTextContent('एल्गोरिदम, बिल्कुल ठीक-ठीक');
    expect(page).not.toHaveTextContent('Check this round yourself');
    expect(englishIn(page)).toEqual([]);
  });

  it('says what is wrong with each field of the by-hand check in Hindi', async () => {
    setLanguage('hi');
    stubServer({ ...EMPTY_CATALOGUE });
    storeSession();
    renderApp('/casino/verify');
    const user = userEvent.setup();
    const page = await screen.findByTestId('casino-verify-page');
    await user.type(screen.getByTestId('verify-seed'), 'xyz');
    await user.click(screen.getByTestId('verify-submit'));

    expect(await screen.findByText('वह गेम चुनें जिस पर राउंड खेला गया।')).toBeInTheDocument();
    expect(screen.getByText(/सीड 64 हेक्स अंकों/)).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('verify-game'), 'teen20');
    await user.type(screen.getByTestId('verify-dealt'), '37');
    await user.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText(/37 पत्ता नहीं है/)).toBeInTheDocument();
    expect(screen.getByTestId('verify-dealt')).toHaveAttribute('placeholder', 'बाँटने के क्रम में पत्ते, जैसे 7C TS QS KS 3D TH (T यानी 10)।');
    expect(englishIn(page)).toEqual([]);
  });

  it('shows the world casino lobby in Hindi, its categories and badges included', async () => {
    setLanguage('hi');
    const game = (game_id: string, game_name: string, category: string, extra: Record<string, unknown> = {}) => ({
      game_id,
      game_name,
      category,
      provider_name: 'Evolution',
      sub_provider_name: '',
      status: 'ACTIVE',
      url_thumb: '',
      game_code: game_id,
      sub_type: null,
      ...extra,
    });
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getStaticGames': { data: [game('evo-1', 'Lightning Roulette', 'Live'), game('bl-1', 'Dragon Tiger Instant', 'Virtual', { sub_type: 'instant' })] },
    });
    storeSession();
    renderApp('/world-casino');
    await screen.findByTestId('world-casino-games');
    const page = screen.getByTestId('world-casino-page');

    const tabs = within(screen.getByRole('tablist', { name: 'श्रेणियाँ' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['सभी', 'लाइव', 'वर्चुअल']);
    expect(screen.getByTestId('instant-badge')).toHaveTextContent('इंस्टेंट · कंप्यूटर द्वारा बाँटा गया');
    expect(screen.getByTestId('world-casino-search')).toHaveAttribute('placeholder', 'गेम या प्रोवाइडर');
    // A tab in Hindi still filters by the catalogue's own (English) category.
    await userEvent.setup().click(tabs[1]);
    const tiles = within(screen.getByTestId('world-casino-games')).getAllByRole('button');
    expect(tiles).toHaveLength(1);
    expect(tiles[0]).toHaveTextContent('Lightning Roulette');
    expect(englishIn(page)).toEqual([]);
  });

  it('shows the casino list in Hindi, the categories as the server names them', async () => {
    setLanguage('hi');
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getCasinoSport': { data: [{ sport_id: 'cardgames', name: 'Teen Patti', is_active: 1, order: 1 }] },
      'POST /api/casino/getCasinoList': { data: [] },
    });
    storeSession();
    renderApp('/casino/list');
    const page = await screen.findByTestId('casino-list-page');
    expect(await within(page).findByText('इस श्रेणी में अभी कोई गेम नहीं है।')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'कैसीनो की श्रेणियाँ' });
    await within(nav).findByText('Teen Patti');
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual(['सभी', 'Teen Patti', 'Mac88']);
    expect(englishIn(page)).toEqual([]);
  });
});
