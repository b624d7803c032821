// The betting screens, the racing list and the notices' bell in Hindi: each says its words in
// Hindi, and no element of them shows (as text, aria-label or title) a text of the English
// `betting` or `notices` catalogue. Server data (team, runner and market names, the notice's
// sentence) stays as the server sends it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import type { Notice } from '../../api/notice-feed';
import { setLanguage } from '../../i18n';
import enBetting from '../../i18n/locales/en/betting.json';
import enNotices from '../../i18n/locales/en/notices.json';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import { noticeToastText } from '../notices/useNotices';
import type { BetItem, Ladder, MatchDetail, PriceHistory } from './api';
import { LadderModal } from './LadderModal';
import { catalogueTexts } from '../../testing/catalogue';

/**
 * The English catalogue's texts as whole-text patterns ("Min {{amount}}" → /^Min .+$/). Texts
 * with fewer than 3 letters of their own ("{{s}}s", "J: {{name}}") would match server data, so
 * they are left out.
 */
const ENGLISH = [...catalogueTexts(enBetting), ...catalogueTexts(enNotices)]
  .map((text) => text.replace(/<\/?\d+>/g, ''))
  .filter((text) => text.replace(/\{\{\w+\}\}/g, '').replace(/[^A-Za-z]/g, '').length >= 3)
  .map((text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{\w+\\\}\\\}/g, '.+')}$`));

/**
 * Every text, aria-label and title under `root` that reads as an English catalogue text. The
 * shared dialog's close button is the shared components' to word, not this area's.
 */
function englishIn(root: HTMLElement): string[] {
  const found: string[] = [];
  for (const element of [root, ...root.querySelectorAll('*')]) {
    if (element.closest('[data-testid="modal-close"]')) continue;
    const said = [element.textContent, element.getAttribute('aria-label'), element.getAttribute('title')];
    for (const text of said) {
      const clean = text?.replace(/\s+/g, ' ').trim();
      if (clean && ENGLISH.some((pattern) => pattern.test(clean))) found.push(clean);
    }
  }
  return [...new Set(found)];
}

const base = { match_id: 100, in_play: false, bet_delay_s: 0, min_stake: 100, max_stake: 500000, total_matched: 2500, commission_bp: 200, line_no: null, rate_no: null, line_yes: null, rate_yes: null, book: [] };

const markets: MarketBook[] = [
  {
    ...base,
    market_id: 1,
    name: 'Match Odds',
    type: 'match_odds',
    status: 'open',
    runners: [
      { selection_id: 11, name: 'India', back: [{ price: 2.5, size: 1000 }], lay: [{ price: 2.52, size: 900 }], position: 20, removed: false },
      { selection_id: 12, name: 'Australia', back: [{ price: 1.66, size: 500 }], lay: [], position: -10.5, removed: false },
    ],
  },
  {
    ...base,
    market_id: 2,
    name: 'Bookmaker',
    type: 'bookmaker',
    status: 'ball_running',
    total_matched: null,
    runners: [{ selection_id: 21, name: 'India', back: [{ price: 45, size: 500000 }], lay: [{ price: 47, size: 500000 }], position: 0, removed: false }],
  },
  {
    ...base,
    market_id: 3,
    name: '6 over runs India',
    type: 'fancy',
    status: 'open',
    total_matched: null,
    runners: [],
    line_no: 48,
    rate_no: 100,
    line_yes: 49,
    rate_yes: 90,
    book: [
      { from: 0, to: 48, pnl: -100 },
      { from: 49, to: null, pnl: 90 },
    ],
  },
];

const detail: MatchDetail = {
  match: {
    match_id: 100,
    name: 'India v Australia',
    match_name: 'India v Australia',
    open_date: '2026-11-22T14:00:00.000Z',
    match_Date: '2026-11-22T14:00:00.000Z',
    sport_id: 4,
    sport_name: 'Cricket',
    series_id: 1,
    series_name: 'World Cup',
    is_active: 1,
    in_play: false,
    finished: false,
    score: null,
    result: null,
    has_fancy: true,
    has_bookmaker: true,
    odds: null,
  },
  markets,
  runner_cards: [],
};

const bet = (overrides: Partial<BetItem>): BetItem => ({
  bet_id: 1,
  market_id: 1,
  selection_id: 11,
  side: 'back',
  price: 2.5,
  line: null,
  avg_price_matched: 2.52,
  stake: 100,
  matched: 100,
  remaining: 0,
  status: 'open',
  persistence: 'lapse',
  date: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

describe('the betting screens in Hindi', () => {
  it('word the match page, the slip, open bets, the editor and the fancy book in Hindi', async () => {
    setLanguage('hi');
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/matchDetail': { data: detail },
      'POST /api/bet/openBets': {
        data: { matched: [bet({})], unmatched: [bet({ bet_id: 2, side: 'lay', price: 3, avg_price_matched: null, matched: 0, remaining: 50, stake: 50 })] },
      },
      'GET /api/user/getButtonValue': { data: JSON.stringify([{ button_name: '1k', button_value: 1000, type: 'Game' }]) },
    });
    storeSession();
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    const page = await screen.findByTestId('game-details-page');
    const board = await within(page).findByTestId('match-board');

    expect(board).toHaveTextContent('बेट स्लिप');
    expect(board).toHaveTextContent('बेट लगाने के लिए किसी भाव पर टैप करें।');
    expect(board).toHaveTextContent('फैंसी');
    expect(board).toHaveTextContent('मैच्ड ₹2,500.00');
    expect(board).toHaveTextContent('मिन ₹100.00');
    expect(within(board).getAllByTestId('status-overlay')[0]).toHaveTextContent('बॉल रनिंग');
    expect(within(board).getAllByRole('button', { name: 'India को 2.5 पर बैक करें' })).toHaveLength(1);
    expect(board).not.toHaveTextContent('Bet Slip');
    expect(board).not.toHaveTextContent('Ball Running');

    // Open bets: the tabs, the matched line, the unmatched one with Cancel all and the editor.
    const openBets = within(board).getByTestId('open-bets');
    expect(await within(openBets).findByText('मैच्ड (1)')).toBeInTheDocument();
    expect(openBets).toHaveTextContent('₹100.00 में से ₹100.00 मैच्ड');
    expect(openBets).toHaveTextContent('बैक 2.52 · माँगा गया 2.50');
    await user.click(within(openBets).getByTestId('open-bets-unmatched-tab'));
    expect(within(openBets).getByTestId('cancel-all')).toHaveTextContent('सब कैंसल करें · Match Odds');
    await user.click(within(openBets).getByTestId('edit-bet'));
    const editor = within(openBets).getByTestId('bet-editor');
    expect(editor).toHaveTextContent('अनमैच्ड स्टेक');
    await user.clear(within(editor).getByTestId('edit-odds'));
    await user.type(within(editor).getByTestId('edit-odds'), '3.03');
    expect(within(editor).getByTestId('edit-effect')).toHaveTextContent('3.03 मान्य भाव नहीं है');
    expect(englishIn(page)).toEqual([]);

    // The slip on an exchange price: its labels, the commission line and a stake refused in Hindi.
    await user.click(within(board).getAllByTestId('best-back')[0]);
    const slip = within(board).getByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-side')).toHaveTextContent('बैक');
    expect(slip).toHaveTextContent('स्टेक');
    expect(slip).toHaveTextContent('लायबिलिटी');
    expect(within(slip).getByTestId('slip-commission')).toHaveTextContent('2% कमीशन के बाद');
    await user.type(within(slip).getByTestId('slip-stake'), '5');
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('यहाँ न्यूनतम स्टेक ₹100.00 है।');
    expect(within(slip).getByTestId('place-bet')).toHaveTextContent('बेट लगाएँ');
    expect(englishIn(page)).toEqual([]);

    // A bookmaker price while the ball is running: refused, in Hindi, on pressing Place Bet.
    await user.click(within(board).getAllByTestId('bm-back')[0]);
    await user.click(within(board).getByTestId('place-bet'));
    expect(within(board).getByTestId('slip-error')).toHaveTextContent('बेट नहीं लगी: बॉल रनिंग थी।');
    expect(englishIn(page)).toEqual([]);

    // The fancy's book.
    await user.click(within(board).getByTestId('fancy-book-button'));
    const book = await screen.findByTestId('fancy-book-modal');
    expect(book).toHaveTextContent('बुक: 6 over runs India');
    expect(book).toHaveTextContent('लाभ / हानि');
    expect(book).toHaveTextContent('49 और ऊपर');
    expect(englishIn(book)).toEqual([]);
  });

  it('word the ladder and the price chart in Hindi', async () => {
    setLanguage('hi');
    storeSession();
    const ladder: Ladder = {
      market_id: 1,
      selection_id: 11,
      name: 'India',
      status: 'open',
      in_play: false,
      last_traded_price: 2.5,
      total_matched: 110,
      levels: [{ price: 2.5, back_size: 20, lay_size: 0, traded: 110, my_back: 0, my_lay: 5 }],
    };
    const history: PriceHistory = {
      market_id: 1,
      selection_id: 11,
      interval_s: 86_400,
      points: [
        { at: '2026-11-20T00:00:00.000Z', price: 2.6, volume: 60 },
        { at: '2026-11-21T00:00:00.000Z', price: 2.5, volume: 50 },
      ],
    };
    stubServer({ 'POST /api/market/ladder': { data: ladder }, 'POST /api/market/priceHistory': { data: history } });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <LadderModal market={markets[0]} selectionId={11} onPick={() => undefined} onClose={() => undefined} />
      </QueryClientProvider>,
    );
    const modal = await screen.findByTestId('ladder-modal');
    await within(modal).findByTestId('full-ladder');
    expect(modal).toHaveTextContent('आखिरी ट्रेड');
    expect(within(modal).getByTestId('ladder-centre')).toHaveTextContent('बीच में लाएँ');
    expect(within(modal).getAllByRole('button', { name: 'India को 2.50 पर बैक करें' })).toHaveLength(1);
    expect(englishIn(modal)).toEqual([]);

    await userEvent.setup().click(within(modal).getByTestId('chart-tab'));
    expect(await within(modal).findByTestId('price-chart')).toHaveTextContent('2 × 1 दिन · ₹110.00 मैच्ड');
    expect(englishIn(modal)).toEqual([]);
  });

  it('word the racing list and a race card in Hindi', async () => {
    setLanguage('hi');
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/getRacingCountries': { data: [{ country_code: 'GB', venues: 1, races: 2 }] },
      'POST /api/match/getMatchVenueListByCountryCodeSportId': {
        data: [
          {
            venue: 'Ascot',
            country_code: 'GB',
            races: [
              { match_id: 5, name: 'Ascot 13:30', market_start_time: '2026-11-24T08:00:00.000Z', in_play: false, finished: true },
              { match_id: 6, name: 'Ascot 14:05', market_start_time: '2026-11-24T08:35:00.000Z', in_play: true, finished: false },
            ],
          },
        ],
      },
    });
    storeSession();
    const { unmount } = renderApp('/horse-racing?sport_id=7&date=2026-11-24');
    const list = await screen.findByTestId('horse-racing-page');
    expect(await within(list).findByTestId('racing-country')).toHaveTextContent('यूनाइटेड किंगडम');
    expect((await within(list).findAllByTestId('race-time')).map((time) => time.textContent)).toEqual(['13:30 · समाप्त', '14:05 · इन-प्ले']);
    expect(list).toHaveTextContent('हॉर्स रेसिंग');
    expect(englishIn(list)).toEqual([]);
    unmount();

    const race: MatchDetail = {
      ...detail,
      match: { ...detail.match, name: '14:30 Ascot', match_name: '14:30 Ascot', sport_id: 7, sport_name: 'Horse Racing', open_date: new Date(Date.now() + 600_000).toISOString() },
      markets: [{ ...markets[0], name: 'Win', type: 'win' }],
      runner_cards: [{ selection_id: 11, draw: 4, jockey: 'R. Moore', trainer: null }],
    };
    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/match/matchDetail': { data: race }, 'POST /api/bet/openBets': { data: { matched: [], unmatched: [] } } });
    renderApp('/horse-racing/100/2026-11-24');
    const card = await screen.findByTestId('race-page');
    expect(await within(card).findByTestId('race-countdown')).toHaveTextContent(/^ऑफ़ में \d+ मिनट \d+ सेकंड बाकी$/);
    expect(within(card).getByTestId('runner-card')).toHaveTextContent('ड्रॉ 4जॉकी: R. Moore');
    expect(englishIn(card)).toEqual([]);
  });

  it('word the notices’ bell and toasts in Hindi, from the notice’s facts', async () => {
    setLanguage('hi');
    const notice: Notice = {
      id: 9,
      kind: 'partially_matched',
      bet_id: 7,
      market_id: 3,
      match_id: 2,
      text: '₹150.00 of your ₹400.00 lay bet on A at 2.50 matched',
      at: '2026-11-29T08:00:00.000Z',
      match_name: 'India v Australia',
      market_name: 'Match Odds',
      amount: 150,
      commission: 0,
      bet: { side: 'lay', price: '2.50', line: null, stake: 400, selection_name: 'A' },
      login: null,
    };
    const newDevice: Notice = {
      ...notice,
      id: 10,
      kind: 'new_device',
      text: 'New log-in from Chrome 131 on Windows 10 at 203.0.113.7.',
      bet_id: null,
      market_id: null,
      match_id: null,
      match_name: null,
      market_name: null,
      amount: 0,
      bet: null,
      login: { device: 'Chrome 131 on Windows 10', ip: '203.0.113.7' },
    };
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/notices?page=1&limit=20': { data: { rows: [newDevice, notice], total: 2, page: 1, limit: 20, unread: 2, last_read_id: 0 } },
      'POST /api/user/notices/read': { data: { last_read_id: 10 } },
    });
    storeSession();
    renderApp('/');
    const bell = await screen.findByRole('button', { name: 'सूचनाएँ, 2 अपठित' });
    await userEvent.setup().click(bell);
    const list = screen.getByTestId('notice-list');
    expect(list).toHaveAccessibleName('सूचनाएँ');
    const said = 'आपकी ₹400.00 की A पर 2.50 की ले बेट में से ₹150.00 मैच्ड हुए; बाकी इंतज़ार में है (India v Australia · Match Odds)।';
    const [deviceItem, betItem] = within(list).getAllByTestId('notice-item');
    expect(deviceItem).toHaveTextContent('नया डिवाइसChrome 131 on Windows 10 से 203.0.113.7 पर नया लॉग-इन।आप नहीं थे?');
    expect(betItem).toHaveTextContent(`आंशिक मैच्ड${said}`);
    expect(englishIn(list)).toEqual([]);
    expect(noticeToastText(notice)).toBe(`आंशिक मैच्ड · ${said}`);
  });
});
