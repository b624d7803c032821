// Editing an unmatched bet from Open Bets: what the form sends (bet/updateBet takes the whole
// stake, matched part included), what it says an edit does to the bet's queue place, and the
// panel's Edit and Cancel all against a stubbed server.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import { stubServer } from '../../testing/fake-server';
import type { BetItem } from './api';
import { editRequest } from './BetEditor';
import { OpenBetsPanel, type OpenBetsTab } from './OpenBetsPanel';

const bet: BetItem = {
  bet_id: 77,
  market_id: 1,
  selection_id: 12,
  side: 'lay',
  price: 2.5,
  avg_price_matched: 2.5,
  line: null,
  stake: 400,
  matched: 150,
  remaining: 250,
  status: 'open',
  persistence: 'lapse',
  date: '2026-11-29T08:00:00.000Z',
};

const market = {
  market_id: 1,
  match_id: 100,
  name: 'Match Odds',
  type: 'match_odds',
  status: 'open',
  runners: [{ selection_id: 12, name: 'Australia', back: [], lay: [], position: 0, removed: false }],
} as unknown as MarketBook;

describe('editing an unmatched bet', () => {
  it('sends the whole stake and says whether the bet keeps its queue place', () => {
    expect(editRequest(bet, '2.50', '250.00', false)).toBeNull();
    expect(editRequest(bet, '2.50', '100', false)).toEqual({ input: { bet_id: 77, stake: '250.00' }, keepsPlace: true });
    expect(editRequest(bet, '2.50', '300', false)).toEqual({ input: { bet_id: 77, stake: '450.00' }, keepsPlace: false });
    expect(editRequest(bet, '2.6', '250', false)).toEqual({ input: { bet_id: 77, price: '2.60' }, keepsPlace: false });
    expect(editRequest(bet, '2.50', '250', true)).toEqual({ input: { bet_id: 77, persistence: 'persist' }, keepsPlace: true });
    const offLadder = editRequest(bet, '2.51', '250', false);
    expect(offLadder && 'problem' in offLadder ? offLadder.problem : '').toContain('2.50 and 2.52');
    expect(editRequest(bet, '2.50', '0', false)).toEqual({ problem: 'The unmatched stake must be more than 0.' });
  });

  it('edits a bet and cancels all of a market from Open Bets', async () => {
    let unmatched: BetItem[] = [bet];
    const calls = stubServer({
      'POST /api/bet/openBets': () => ({ data: { matched: [], unmatched } }),
      'POST /api/match/matchDetail': { data: null },
      'GET /api/user/getUserBalance': { data: { total_balance: 1500, liability: 0, available: 1500 } },
      'POST /api/bet/updateBet': () => {
        unmatched = [{ ...bet, remaining: 100 }];
        return { message: 'Bet updated.', data: { bet_id: 77, replaced_bet_id: null, kept_queue_place: true, status: null, remaining: 100 } };
      },
      'POST /api/bet/cancelAllBets': () => {
        unmatched = [];
        return { message: 'Cancelled 1 bet(s).', data: { count: 1 } };
      },
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <PanelWithItsTab markets={[market]} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByTestId('open-bets-unmatched-tab'));
    const item = await screen.findByTestId('open-bet-unmatched');
    await user.click(within(item).getByTestId('edit-bet'));
    const editor = screen.getByTestId('bet-editor');
    expect(within(editor).getByTestId('edit-odds')).toHaveValue('2.50');
    expect(within(editor).getByTestId('edit-stake')).toHaveValue('250.00');
    expect(within(editor).getByTestId('edit-save')).toBeDisabled();
    await user.clear(within(editor).getByTestId('edit-stake'));
    await user.type(within(editor).getByTestId('edit-stake'), '100');
    expect(within(editor).getByTestId('edit-effect')).toHaveTextContent('Keeps its place in the queue.');
    await user.click(within(editor).getByTestId('edit-save'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/bet/updateBet')?.body).toEqual({ bet_id: 77, stake: '250.00' }));
    await waitFor(() => expect(screen.getByTestId('open-bet-unmatched')).toHaveTextContent('Unmatched ₹100.00 of ₹400.00'));
    expect(screen.queryByTestId('bet-editor')).toBeNull();

    await user.click(screen.getByTestId('cancel-all'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/bet/cancelAllBets')?.body).toEqual({ market_id: 1 }));
    await waitFor(() => expect(screen.queryByTestId('open-bet-unmatched')).toBeNull());
  });
});

/** The panel as the match board holds it: the board keeps which tab is shown. */
function PanelWithItsTab({ markets }: { markets: MarketBook[] }) {
  const [tab, setTab] = useState<OpenBetsTab>('matched');
  return <OpenBetsPanel matchId={100} markets={markets} tab={tab} onTab={setTab} />;
}
