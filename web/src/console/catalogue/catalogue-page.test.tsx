import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const runner = (selection_id: number, name: string) => ({ selection_id, name, back: [], lay: [], position: 0 });
const place = {
  market_id: 41,
  match_id: 9,
  name: 'To be placed',
  type: 'place',
  status: 'open',
  in_play: false,
  bet_delay_s: 5,
  min_stake: 100,
  max_stake: 5000,
  commission_bp: 0,
  winners: 2,
  result_selection_id: null,
  result_selection_ids: [],
  result_value: null,
  runners: [runner(411, 'Arrow'), runner(412, 'Blaze'), runner(413, 'Comet')],
  line_no: null,
  rate_no: null,
  line_yes: null,
  rate_yes: null,
  book: [],
};
const settled = { ...place, market_id: 42, name: 'Earlier place', status: 'closed', result_selection_id: 413, result_selection_ids: [413, 411] };
const desk = { match: { match_id: 9, name: '14:30 Ascot', in_play: false }, markets: [place, settled] };
const preview = { bets: 2, clients: 2, winners: 1, losers: 1, clients_win: 200, clients_lose: 200, house_pnl: 0, commission: 0 };

function server(extra: Answers = {}) {
  return stubServer({ ...EMPTY_CATALOGUE, 'POST /api/admin/desk/markets': { data: desk }, ...extra }, { data: null });
}

describe('the catalogue: place markets', () => {
  it('shows every placed runner of a settled place market, first placed first', async () => {
    server();
    storeSession(admin);
    renderApp('/console/markets/9');
    const row = await screen.findByTestId('catalogue-market-42');
    expect(within(row).getByTestId('catalogue-result')).toHaveTextContent('Comet, Arrow placed');
  });

  it('declares the placed runners in order, after previewing what they move', async () => {
    const calls = server({
      'POST /api/admin/market/resultPreview': { data: preview },
      'POST /api/admin/market/result': { message: 'To be placed settled.' },
    });
    storeSession(admin);
    renderApp('/console/markets/9');
    const row = await screen.findByTestId('catalogue-market-41');
    await userEvent.click(within(row).getByTestId('market-result'));
    const dialog = await screen.findByTestId('result-dialog');
    // One choice per place paid; the winner's single choice is not offered.
    expect(within(dialog).queryByTestId('result-winner')).toBeNull();
    expect(within(dialog).queryByTestId('result-place-3')).toBeNull();
    await userEvent.selectOptions(within(dialog).getByTestId('result-place-1'), 'Comet');
    await userEvent.selectOptions(within(dialog).getByTestId('result-place-2'), 'Arrow');
    expect(await within(dialog).findByTestId('result-preview')).toHaveTextContent('clients win');
    await userEvent.click(within(dialog).getByTestId('result-confirm'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/market/result')).toBe(true));
    const declared = calls.find((c) => c.path === '/api/admin/market/result');
    expect(declared?.body).toEqual({ market_id: 41, placed_selection_ids: [413, 411] });
    const previews = calls.filter((c) => c.path === '/api/admin/market/resultPreview').map((c) => c.body);
    expect(previews).toContainEqual({ market_id: 41, placed_selection_ids: [413] });
    expect(previews.at(-1)).toEqual({ market_id: 41, placed_selection_ids: [413, 411] });
  });

  it('will not declare one runner in two places', async () => {
    const calls = server({ 'POST /api/admin/market/resultPreview': { data: preview } });
    storeSession(admin);
    renderApp('/console/markets/9');
    const row = await screen.findByTestId('catalogue-market-41');
    await userEvent.click(within(row).getByTestId('market-result'));
    const dialog = await screen.findByTestId('result-dialog');
    await userEvent.selectOptions(within(dialog).getByTestId('result-place-1'), 'Blaze');
    await userEvent.selectOptions(within(dialog).getByTestId('result-place-2'), 'Blaze');
    expect(within(dialog).getByText('Each runner can take one place only.')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByTestId('result-preview')).toBeNull());
    expect(within(dialog).getByTestId('result-confirm')).toBeDisabled();
    expect(calls.filter((c) => c.path === '/api/admin/market/result')).toEqual([]);
  });

  it('creates a place market with the places it pays', async () => {
    const calls = server({ 'POST /api/admin/market/create': { message: 'Place created (suspended until opened).', data: { market_id: 43, selection_ids: [1, 2, 3, 4] } } });
    storeSession(admin);
    renderApp('/console/markets/9');
    const form = await screen.findByTestId('market-form');
    await userEvent.selectOptions(within(form).getByTestId('market-type'), 'place');
    await userEvent.type(within(form).getByTestId('market-name'), 'Place');
    await userEvent.type(within(form).getByTestId('market-runners'), 'A{enter}B{enter}C{enter}D');
    await userEvent.clear(within(form).getByTestId('market-places'));
    await userEvent.type(within(form).getByTestId('market-places'), '2');
    await userEvent.click(within(form).getByRole('button', { name: 'Create market' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/market/create')).toBe(true));
    expect(calls.find((c) => c.path === '/api/admin/market/create')?.body).toMatchObject({ type: 'place', runners: ['A', 'B', 'C', 'D'], winners: 2 });
  });

  it('corrects a settled market after showing what moves per client and per share, with a reason', async () => {
    const correction = {
      market_id: 42, market: '14:30 Ascot / Earlier place', was: 'closed', applied: false, bets: 2, clients_negative: 1,
      lines: [
        { account: 'client', user_id: 7, user_name: 'ravi', amount: -1000, balance_before: 100, balance_after: -900, exposure: 1000, available_after: -1900 },
        { account: 'share', user_id: 5, user_name: 'wagent', amount: 200, balance_before: 200, balance_after: 400, exposure: 0, available_after: 400 },
        { account: 'house', user_id: null, user_name: null, amount: 800, balance_before: 0, balance_after: 0, exposure: 0, available_after: 0 },
      ],
    };
    const calls = server({
      'POST /api/admin/market/unsettlePreview': { data: correction },
      'POST /api/admin/market/unsettle': { message: 'Taken back.', data: { ...correction, applied: true } },
    });
    storeSession(admin);
    renderApp('/console/markets/9');
    const row = await screen.findByTestId('catalogue-market-42');
    // Only a settled market offers it.
    expect(within(await screen.findByTestId('catalogue-market-41')).queryByTestId('market-correct')).toBeNull();
    await userEvent.click(within(row).getByTestId('market-correct'));
    const dialog = await screen.findByTestId('correction-dialog');
    expect(await within(dialog).findByTestId('correction-client-7')).toHaveTextContent('ravi');
    expect(within(dialog).getByTestId('correction-client-7')).toHaveTextContent('owes');
    expect(within(dialog).getByTestId('correction-share-5')).toHaveTextContent('wagent');
    expect(within(dialog).getByTestId('correction-negative')).toHaveTextContent('1 client will owe');
    // No reason, no correction.
    await userEvent.click(within(dialog).getByTestId('correction-confirm'));
    expect(within(dialog).getByText(/Say why the result is being corrected/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/admin/market/unsettle')).toEqual([]);
    await userEvent.type(within(dialog).getByTestId('correction-reason'), 'Wrong winner');
    await userEvent.click(within(dialog).getByTestId('correction-confirm'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/admin/market/unsettle')).toBe(true));
    expect(calls.find((c) => c.path === '/api/admin/market/unsettle')?.body).toEqual({ market_id: 42, reason: 'Wrong winner' });
  });
});

describe('the catalogue: withdrawing a runner', () => {
  // Comet is already a non-runner: it is named on the row and not offered again.
  const withComet = { ...place, runners: [runner(411, 'Arrow'), runner(412, 'Blaze'), { ...runner(413, 'Comet'), removed: true }] };
  const fancy = { ...place, market_id: 44, name: '6 over runs', type: 'fancy', runners: [] };
  const withdrawDesk = { ...desk, markets: [withComet, settled, fancy] };
  const removed = { selection_id: 412, name: 'Blaze', reduction_factor: 12.5, prices_reduced: true, bets_void: 3, unmatched_cancelled: 2, matches_reduced: 4 };
  const removals = (calls: Call[]) => calls.filter((c) => c.path === '/api/admin/market/removeRunner');

  async function openDialog() {
    const row = await screen.findByTestId('catalogue-market-41');
    await userEvent.click(within(row).getByTestId('market-withdraw'));
    return screen.findByTestId('withdraw-dialog');
  }

  it('withdraws the runner picked at the factor typed, only once confirmed, and shows the answer', async () => {
    const calls = server({
      'POST /api/admin/desk/markets': { data: withdrawDesk },
      'POST /api/admin/market/removeRunner': { message: 'Blaze withdrawn: 3 bets void, 2 unmatched cancelled, 4 matches reduced.', data: removed },
    });
    storeSession(admin);
    renderApp('/console/markets/9');
    const row = await screen.findByTestId('catalogue-market-41');
    expect(within(row).getByTestId('catalogue-non-runners')).toHaveTextContent('Non-runner: Comet');
    // Neither a settled market nor a fancy offers it.
    expect(within(screen.getByTestId('catalogue-market-42')).queryByTestId('market-withdraw')).toBeNull();
    expect(within(screen.getByTestId('catalogue-market-44')).queryByTestId('market-withdraw')).toBeNull();
    const dialog = await openDialog();
    const options = within(within(dialog).getByTestId('withdraw-runner')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Choose…', 'Arrow', 'Blaze']);
    // A factor out of range or with more than 2 decimals goes no further.
    await userEvent.selectOptions(within(dialog).getByTestId('withdraw-runner'), 'Blaze');
    await userEvent.type(within(dialog).getByTestId('withdraw-factor'), '12.345');
    await userEvent.click(within(dialog).getByTestId('withdraw-next'));
    expect(within(dialog).getByText(/Reduction factor must be a percentage from 0 to 100/)).toBeInTheDocument();
    expect(within(dialog).queryByTestId('withdraw-confirm')).toBeNull();
    await userEvent.clear(within(dialog).getByTestId('withdraw-factor'));
    await userEvent.type(within(dialog).getByTestId('withdraw-factor'), '12.5');
    await userEvent.click(within(dialog).getByTestId('withdraw-next'));
    // The confirmation says plainly what happens; nothing is sent before it.
    expect(within(dialog).getByTestId('withdraw-summary')).toHaveTextContent('Withdraw Blaze from To be placed as a non-runner, with a reduction factor of 12.5 %.');
    expect(within(dialog).getByTestId('withdraw-warning')).toHaveTextContent(
      'Its bets are void; with a factor of 2.5 % or more every unmatched bet of the market is cancelled and prices matched before on the other runners are reduced. This cannot be undone.',
    );
    expect(removals(calls)).toEqual([]);
    await userEvent.click(within(dialog).getByTestId('withdraw-confirm'));
    expect(await within(dialog).findByTestId('withdraw-done')).toHaveTextContent('Blaze withdrawn: 3 bets void, 2 unmatched cancelled, 4 matches reduced.');
    expect(within(dialog).getByTestId('withdraw-figures')).toHaveTextContent('Blaze: 3 bets void, 2 unmatched cancelled, 4 matched prices reduced by 12.5 %.');
    expect(removals(calls).map((c) => c.body)).toEqual([{ market_id: 41, selection_id: 412, reduction_factor: 12.5 }]);
  });

  it('posts nothing when cancelled, at the confirmation or before it', async () => {
    const calls = server({ 'POST /api/admin/desk/markets': { data: withdrawDesk }, 'POST /api/admin/market/removeRunner': { message: 'Withdrawn.', data: removed } });
    storeSession(admin);
    renderApp('/console/markets/9');
    let dialog = await openDialog();
    await userEvent.selectOptions(within(dialog).getByTestId('withdraw-runner'), 'Arrow');
    await userEvent.type(within(dialog).getByTestId('withdraw-factor'), '0');
    await userEvent.click(within(dialog).getByTestId('withdraw-next'));
    expect(within(dialog).getByTestId('withdraw-summary')).toHaveTextContent('Withdraw Arrow');
    await userEvent.click(within(dialog).getByTestId('withdraw-cancel'));
    expect(screen.queryByTestId('withdraw-dialog')).toBeNull();
    dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('withdraw-dialog')).toBeNull();
    expect(removals(calls)).toEqual([]);
  });

  it('offers a non-runner neither as the winner nor as placed', async () => {
    server({ 'POST /api/admin/desk/markets': { data: withdrawDesk } });
    storeSession(admin);
    renderApp('/console/markets/9');
    const row = await screen.findByTestId('catalogue-market-41');
    await userEvent.click(within(row).getByTestId('market-result'));
    const dialog = await screen.findByTestId('result-dialog');
    const options = within(within(dialog).getByTestId('result-place-1')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['—', 'Arrow', 'Blaze']);
  });

  it("shows the server's refusal", async () => {
    server({
      'POST /api/admin/desk/markets': { data: withdrawDesk },
      'POST /api/admin/market/removeRunner': { httpStatus: 409, message: 'To be placed would have fewer runners than it places.' },
    });
    storeSession(admin);
    renderApp('/console/markets/9');
    const dialog = await openDialog();
    await userEvent.selectOptions(within(dialog).getByTestId('withdraw-runner'), 'Arrow');
    await userEvent.type(within(dialog).getByTestId('withdraw-factor'), '30');
    await userEvent.click(within(dialog).getByTestId('withdraw-next'));
    await userEvent.click(within(dialog).getByTestId('withdraw-confirm'));
    expect(await within(dialog).findByText('To be placed would have fewer runners than it places.')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('withdraw-done')).toBeNull();
  });
});
