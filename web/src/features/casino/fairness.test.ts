// Fixtures: SHA-256 of 32 zero bytes (the vector crates/casino/src/fair.rs asserts for
// ServerSeed::from_bytes([0; 32]).commitment()), and of 32 bytes 0x5a (computed with Node's
// crypto: createHash('sha256').update(Buffer.from('5a'.repeat(32), 'hex'))).
import { describe, expect, it } from 'vitest';
import { checkCommitment, checkRound, parseTypedDeal, seedBytes } from './fairness';

const ZERO_SEED = '00'.repeat(32);
const ZERO_COMMITMENT = '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925';
const SEED_5A = '5a'.repeat(32);
const COMMITMENT_5A = '60bf07c488aad18fda339df07e4fbc47b4f00be71711936f18d04d352ad01890';

describe('the commitment check', () => {
  it('hashes the seed bytes, not the hex text', async () => {
    expect(await checkCommitment(ZERO_SEED, ZERO_COMMITMENT)).toEqual({ kind: 'match', actual: ZERO_COMMITMENT });
    expect(await checkCommitment(SEED_5A, COMMITMENT_5A)).toEqual({ kind: 'match', actual: COMMITMENT_5A });
  });

  it('ignores case and spaces as the server does', async () => {
    expect((await checkCommitment(` ${SEED_5A.toUpperCase()} `, ` ${COMMITMENT_5A.toUpperCase()}`)).kind).toBe('match');
  });

  it('reports a mismatch with the hash it computed', async () => {
    expect(await checkCommitment(SEED_5A, ZERO_COMMITMENT)).toEqual({ kind: 'mismatch', actual: COMMITMENT_5A });
  });

  it('refuses a seed that is not 32 bytes of hex', async () => {
    expect(seedBytes('zz')).toBe('not-hex');
    expect(seedBytes('abcd')).toBe('wrong-length');
    expect((await checkCommitment('abcd', ZERO_COMMITMENT)).kind).toBe('bad-seed');
  });

  it('says so when the browser has no WebCrypto', async () => {
    expect(await checkCommitment(ZERO_SEED, ZERO_COMMITMENT, null)).toEqual({ kind: 'unsupported' });
  });
});

describe('checking a round', () => {
  const round = { seed: '00'.repeat(32), commitment: ZERO_COMMITMENT, roundId: 'roulette-000001', game: 'roulette', shown: null };

  it('refuses what the server could not have sent, in words', async () => {
    expect(await checkRound({ ...round, seed: 'zz' })).toEqual({ kind: 'cannot-check', reason: 'The seed is not hexadecimal.' });
    expect(await checkRound({ ...round, roundId: '' })).toEqual({ kind: 'cannot-check', reason: 'The round id must be 1 to 128 bytes long.' });
    expect(await checkRound({ ...round, roundId: 'r'.repeat(129) })).toMatchObject({ kind: 'cannot-check' });
    expect(await checkRound({ ...round, game: 'blackjack' })).toEqual({ kind: 'cannot-check', reason: 'blackjack is not one of the in-house games.' });
    expect(await checkRound(round, null)).toEqual({ kind: 'unsupported' });
  });

  it('reports the commitment and the deal separately', async () => {
    const checked = await checkRound({ ...round, commitment: ` ${ZERO_COMMITMENT.toUpperCase()} `, shown: { pocket: 3 } });
    expect(checked).toMatchObject({ kind: 'checked', actualCommitment: ZERO_COMMITMENT, commitmentMatches: true });
    if (checked.kind !== 'checked' || !('pocket' in checked.deal)) throw new Error('a roulette deal is a pocket');
    expect(checked.difference).toBe(checked.deal.pocket === 3 ? null : `the seed deals pocket ${checked.deal.pocket}, the round shows pocket 3`);
    expect(await checkRound({ ...round, commitment: '' })).toMatchObject({ commitmentMatches: null, difference: null });
    expect(await checkRound({ ...round, commitment: COMMITMENT_5A })).toMatchObject({ commitmentMatches: false });
  });
});

describe('a deal typed by a player', () => {
  it('reads cards, a pocket or six digits by game', () => {
    expect(parseTypedDeal('dt1day', ' 10h,as ')).toEqual({ deal: { cards: ['TH', 'AS'] } });
    expect(parseTypedDeal('roulette', '0')).toEqual({ deal: { pocket: 0 } });
    expect(parseTypedDeal('roulette', '36')).toEqual({ deal: { pocket: 36 } });
    expect(parseTypedDeal('worli', '169-062')).toEqual({ deal: { matka: { open: [1, 6, 9], close: [0, 6, 2] } } });
  });

  it('says what is wrong', () => {
    expect(parseTypedDeal('roulette', '37')).toEqual({ problem: 'Enter the pocket the ball landed in, 0 to 36.' });
    expect(parseTypedDeal('roulette', '-1')).toHaveProperty('problem');
    expect(parseTypedDeal('worli', '16906')).toHaveProperty('problem');
    expect(parseTypedDeal('teen20', '')).toEqual({ problem: 'Enter the cards in dealing order, e.g. 7C TS QS.' });
    expect(parseTypedDeal('teen20', 'AS 1H')).toEqual({ problem: '1H is not a card: write rank then suit, e.g. AS, TD, 7H (ranks A 2–9 T J Q K, suits S H D C).' });
    expect(parseTypedDeal('andarbahar', 'AS '.repeat(53))).toEqual({ problem: 'A deal has at most 52 cards.' });
  });
});
