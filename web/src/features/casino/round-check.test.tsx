// The round page's check and the by-hand check page, with fetch stubbed: a player checks a
// round in the browser (the commitment, and the deal recomputed from the seed and round id),
// a tampered round is called out with its exact mismatch, and no operator command is shown.
//
// The fixtures were computed with docs/casino.md's Python reference implementation, not with
// the code under test: seed 5a × 32 bytes has SHA-256 60bf07c4…; round dt1day-1795356000000
// deals 2D QC (Dragon 2D, Tiger QC); round worli-000042 draws 5 1 9, then 8 2 6.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import type { RoundDetail } from './table-api';

const ROUND = 'dt1day-1795356000000';
const SEED_5A = '5a'.repeat(32);
const COMMITMENT_5A = '60bf07c488aad18fda339df07e4fbc47b4f00be71711936f18d04d352ad01890';
// SHA-256 of 32 zero bytes, the vector crates/casino/src/fair.rs asserts.
const COMMITMENT_ZERO = '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925';

function roundDetail(overrides: Partial<RoundDetail> = {}): RoundDetail {
  return {
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
    deal: { cards: ['2D', 'QC'] },
    result: { winner: 'Tiger', hands: [{ name: 'Dragon', cards: ['2D'], description: '2' }, { name: 'Tiger', cards: ['QC'], description: '12' }] },
    cards: ['2D', 'QC'],
    winner: 'Tiger',
    opened_at: '2026-11-22T14:00:00.000Z',
    close_at: '2026-11-22T14:00:30.000Z',
    settled_at: '2026-11-22T14:00:31.000Z',
    ...overrides,
  };
}

function showRound(detail: RoundDetail, message = '') {
  const calls = stubServer({ ...EMPTY_CATALOGUE, 'POST /api/casino/round': { message, data: detail } });
  storeSession();
  renderApp(`/casino/round/${detail.round_id}`);
  return calls;
}

/** The verdict once WebCrypto has answered (it is asynchronous): not while it says "checking". */
async function verdict(testId: 'commitment-check' | 'deal-check') {
  await waitFor(() => expect(screen.getByTestId('commitment-check')).not.toHaveAttribute('data-state', 'checking'));
  return screen.getByTestId(testId);
}

describe('the round page', () => {
  it('says how a player checks a round, and checks this one in the browser', async () => {
    showRound(roundDetail());
    const page = await screen.findByTestId('casino-round-page');

    expect(await verdict('commitment-check')).toHaveAttribute('data-state', 'match');
    expect(screen.getByTestId('commitment-check')).toHaveTextContent('Commitment matches');
    expect(screen.getByTestId('deal-check')).toHaveAttribute('data-state', 'match');
    expect(screen.getByTestId('deal-check')).toHaveTextContent('Deal matches: 2D QC');

    const steps = within(page).getByTestId('fairness-steps');
    expect(steps).toHaveTextContent('SHA-256 of the seed\'s 32 bytes must be the commitment');
    expect(steps).toHaveTextContent('HMAC-SHA256 keyed with the seed, over the round id');
    expect(steps).toHaveTextContent('j = below(i + 1)');
    expect(page).not.toHaveTextContent('backlay casino verify');
    expect(within(page).getByTestId('round-seed')).toHaveTextContent(SEED_5A);
    expect(within(page).getByRole('img', { name: 'Queen of clubs' })).toBeInTheDocument();
    expect(within(page).getByText('Dragon Tiger 1 Day')).toHaveAttribute('href', '#/casino/match/4');
    expect(within(page).getByTestId('verify-by-hand-link')).toHaveAttribute(
      'href',
      `#/casino/verify?game=dt1day&round=${ROUND}&seed=${SEED_5A}&commitment=${COMMITMENT_5A}`,
    );
    expect(screen.queryByTestId('server-deal-check')).toBeNull();
  });

  it('names the card that differs when the round shows another deal than the seed gives', async () => {
    showRound(roundDetail({ deal: { cards: ['2D', 'KC'] }, cards: ['2D', 'KC'] }));

    const deal = await verdict('deal-check');
    expect(deal).toHaveAttribute('data-state', 'mismatch');
    expect(deal).toHaveTextContent('Deal does NOT match: card 2: the seed deals QC, the round shows KC.');
    expect(deal).toHaveTextContent('The seed and round id deal 2D QC');
    // The seed itself is the committed one.
    expect(screen.getByTestId('commitment-check')).toHaveAttribute('data-state', 'match');
  });

  it('says clearly when the revealed seed does not hash to the commitment', async () => {
    showRound(roundDetail({ seed: '00'.repeat(32) }));

    const commitment = await verdict('commitment-check');
    expect(commitment).toHaveAttribute('data-state', 'mismatch');
    expect(commitment).toHaveTextContent('Commitment does NOT match: SHA-256 of the revealed seed is');
    expect([...commitment.querySelectorAll('code')].map((code) => code.textContent)).toEqual([COMMITMENT_ZERO, COMMITMENT_5A]);
  });

  it('checks a numbers game by its draws', async () => {
    showRound(
      roundDetail({
        round_id: 'worli-000042',
        game_code: 'worli',
        game: 'worli',
        title: 'Worli Matka',
        deal: { matka: { open: [5, 1, 9], close: [8, 2, 6] } },
        cards: [],
        result: { winner: '159-56-268', hands: [] },
        winner: '159-56-268',
      }),
    );

    const deal = await verdict('deal-check');
    expect(deal).toHaveAttribute('data-state', 'match');
    expect(deal).toHaveTextContent('Deal matches: open 5 1 9, close 8 2 6');
  });

  it('passes on the server saying its stored deal differs', async () => {
    showRound(roundDetail({ verified: false }));
    expect(await screen.findByTestId('server-deal-check')).toHaveTextContent('could not match the deal recomputed from the seed with the one it stored');
  });

  it('says the seed comes after the deal while the round is betting', async () => {
    showRound(
      roundDetail({ phase: 'betting', seed: null, verified: false, deal: null, result: null, cards: [], winner: null, settled_at: null }),
      'The seed is revealed with the round\'s result.',
    );

    expect(await screen.findByTestId('round-seed-hidden')).toHaveTextContent('The seed is revealed with the result');
    expect(screen.getByTestId('commitment-check')).toHaveTextContent('the seed is revealed after the deal');
    expect(screen.queryByTestId('deal-check')).toBeNull();
    expect(screen.queryByTestId('server-deal-check')).toBeNull();
    expect(screen.getByTestId('round-commitment')).toHaveTextContent(COMMITMENT_5A);
  });
});

describe('checking a round by hand', () => {
  function openVerify(query = '') {
    const calls = stubServer(EMPTY_CATALOGUE);
    storeSession();
    renderApp(`/casino/verify${query}`);
    return calls;
  }

  it('checks a pasted seed and round id against the commitment and the cards the player saw, asking the server nothing', async () => {
    const user = userEvent.setup();
    const calls = openVerify();
    await screen.findByTestId('casino-verify-page');
    await user.selectOptions(screen.getByTestId('verify-game'), 'dt1day');
    await user.type(screen.getByTestId('verify-round-id'), ROUND);
    await user.type(screen.getByTestId('verify-seed'), ` ${SEED_5A.toUpperCase()} `);
    await user.type(screen.getByTestId('verify-commitment'), COMMITMENT_5A);
    await user.type(screen.getByTestId('verify-dealt'), '2d, qc');
    const before = calls.length;
    await user.click(screen.getByTestId('verify-submit'));

    const result = await screen.findByTestId('verify-result');
    expect(result).toHaveTextContent(`Dragon Tiger 1 Day round ${ROUND}`);
    expect(await verdict('commitment-check')).toHaveAttribute('data-state', 'match');
    expect(screen.getByTestId('deal-check')).toHaveTextContent('Deal matches: 2D QC');
    // Nothing about the round: the app's own polling (the notices' bell) may tick meanwhile.
    expect(calls.slice(before).filter((c) => !c.path.startsWith('/api/user/notices'))).toEqual([]);

    // Another card typed: the exact mismatch.
    await user.clear(screen.getByTestId('verify-dealt'));
    await user.type(screen.getByTestId('verify-dealt'), '2D 10C');
    await user.click(screen.getByTestId('verify-submit'));
    await waitFor(() => expect(screen.getByTestId('deal-check')).toHaveAttribute('data-state', 'mismatch'));
    expect(screen.getByTestId('deal-check')).toHaveTextContent('card 2: the seed deals QC, the round shows TC');
  });

  it('fills the form from the round page link, and without a commitment shows the seed\'s hash to compare', async () => {
    const user = userEvent.setup();
    openVerify(`?game=worli&round=worli-000042&seed=${SEED_5A}`);
    expect(await screen.findByTestId('verify-seed')).toHaveValue(SEED_5A);
    expect(screen.getByTestId('verify-dealt')).toHaveAttribute('placeholder', 'The six digits drawn, open then close, e.g. 169 062.');
    await user.click(screen.getByTestId('verify-submit'));

    const commitment = await verdict('commitment-check');
    expect(commitment).toHaveAttribute('data-state', 'no-commitment');
    expect(commitment).toHaveTextContent(COMMITMENT_5A);
    expect(screen.getByTestId('deal-check')).toHaveAttribute('data-state', 'recomputed');
    expect(screen.getByTestId('deal-check')).toHaveTextContent('The seed deals: open 5 1 9, close 8 2 6');
  });

  it('says what is wrong with each field in words', async () => {
    const user = userEvent.setup();
    openVerify();
    await screen.findByTestId('casino-verify-page');
    await user.type(screen.getByTestId('verify-seed'), 'xyz');
    await user.type(screen.getByTestId('verify-commitment'), 'abc');
    await user.click(screen.getByTestId('verify-submit'));

    expect(await screen.findByText('Choose the game the round was played at.')).toBeInTheDocument();
    expect(screen.getByText(/Enter the round id, as the round page shows it/)).toBeInTheDocument();
    expect(screen.getByText(/The seed is 64 hex digits/)).toBeInTheDocument();
    expect(screen.getByText(/The commitment is 64 hex digits/)).toBeInTheDocument();
    expect(screen.queryByTestId('verify-result')).toBeNull();

    await user.selectOptions(screen.getByTestId('verify-game'), 'roulette');
    await user.type(screen.getByTestId('verify-dealt'), '37');
    await user.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText('Enter the pocket the ball landed in, 0 to 36.')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('verify-game'), 'teen20');
    await user.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText(/37 is not a card: write rank then suit/)).toBeInTheDocument();
  });
});
