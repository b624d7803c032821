// Fixtures: SHA-256 of 32 zero bytes (the vector crates/casino/src/fair.rs asserts for
// ServerSeed::from_bytes([0; 32]).commitment()), and of 32 bytes 0x5a (computed with Node's
// crypto: createHash('sha256').update(Buffer.from('5a'.repeat(32), 'hex'))).
import { describe, expect, it } from 'vitest';
import { checkCommitment, seedBytes } from './fairness';

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
