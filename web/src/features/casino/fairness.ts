// The browser's own check of a round, mirroring crates/casino/src/fair.rs `verify`: the
// commitment is hex(SHA-256(seed bytes)), the seed revealed as exactly 64 hex digits (32
// bytes), the comparison ignores case and surrounding spaces, and the deal is recomputed from
// the seed and round id by fair-deal.ts, the published algorithm.
import { i18n } from '../../i18n';
import { MAX_ROUND_ID_BYTES, dealDifference, isGameCode, recomputeDeal, type Deal, type GameCode } from './fair-deal';

export const SEED_BYTES = 32;

/** The bytes of a hex text, or why they are not a seed (as `ServerSeed::from_hex` refuses). */
export function seedBytes(seedHex: string): Uint8Array<ArrayBuffer> | 'not-hex' | 'wrong-length' {
  const text = seedHex.trim();
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return 'not-hex';
  if (text.length !== SEED_BYTES * 2) return 'wrong-length';
  const bytes = new Uint8Array(SEED_BYTES);
  for (let i = 0; i < SEED_BYTES; i += 1) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Why a seed of the wrong length is refused, in words (in the app's language at the call). */
function seedLengthText(): string {
  return i18n.t('casino:check.seedLength', { bytes: SEED_BYTES, digits: SEED_BYTES * 2 });
}

export type CommitmentCheck =
  | { kind: 'match'; actual: string }
  | { kind: 'mismatch'; actual: string }
  | { kind: 'bad-seed'; reason: string }
  | { kind: 'unsupported' };

/**
 * Does SHA-256 of the revealed seed's bytes equal the published commitment? `subtle` is the
 * browser's WebCrypto (absent outside a secure context: https or localhost).
 */
export async function checkCommitment(
  seedHex: string,
  commitment: string,
  subtle: SubtleCrypto | null | undefined = globalThis.crypto?.subtle,
): Promise<CommitmentCheck> {
  const bytes = seedBytes(seedHex);
  if (bytes === 'not-hex') return { kind: 'bad-seed', reason: i18n.t('casino:check.notHex') };
  if (bytes === 'wrong-length') return { kind: 'bad-seed', reason: seedLengthText() };
  if (!subtle) return { kind: 'unsupported' };
  const actual = toHex(await subtle.digest('SHA-256', bytes));
  return actual === commitment.trim().toLowerCase() ? { kind: 'match', actual } : { kind: 'mismatch', actual };
}

/** A round to check: what was published (commitment), revealed (seed) and shown (the deal), by round id and game. */
export interface RoundToCheck {
  seed: string;
  /** The commitment published before betting; blank when the player has none to compare. */
  commitment: string;
  roundId: string;
  /** The rules code (`teen20`, `dt1day` …), as `casino/round` sends it in `game`. */
  game: string;
  /** The deal the round shows (or the player saw), to compare; null when there is none. */
  shown: Deal | null;
}

export type RoundCheck =
  | { kind: 'cannot-check'; reason: string }
  | { kind: 'unsupported' }
  | {
      kind: 'checked';
      /** hex(SHA-256(seed bytes)). */
      actualCommitment: string;
      /** Whether it is the published commitment; null when none was given. */
      commitmentMatches: boolean | null;
      /** The deal recomputed from the seed and round id. */
      deal: Deal;
      /** Where the shown deal differs from the recomputed one: null when they agree or none was shown. */
      difference: string | null;
    };

/**
 * Checks a round as a player would, in this browser: SHA-256 of the seed against the commitment,
 * then the deal recomputed from the seed and round id (fair-deal.ts) against the one shown. The
 * deal is recomputed even when the commitment does not match, so both findings are reported.
 */
export async function checkRound(round: RoundToCheck, subtle: SubtleCrypto | null | undefined = globalThis.crypto?.subtle): Promise<RoundCheck> {
  const seed = seedBytes(round.seed);
  if (seed === 'not-hex') return { kind: 'cannot-check', reason: i18n.t('casino:check.notHex') };
  if (seed === 'wrong-length') return { kind: 'cannot-check', reason: seedLengthText() };
  const roundIdBytes = new TextEncoder().encode(round.roundId).length;
  if (roundIdBytes === 0 || roundIdBytes > MAX_ROUND_ID_BYTES) {
    return { kind: 'cannot-check', reason: i18n.t('casino:check.roundIdLength', { max: MAX_ROUND_ID_BYTES }) };
  }
  if (!isGameCode(round.game)) return { kind: 'cannot-check', reason: i18n.t('casino:check.notInHouse', { game: round.game }) };
  if (!subtle) return { kind: 'unsupported' };
  const actualCommitment = toHex(await subtle.digest('SHA-256', seed));
  const published = round.commitment.trim().toLowerCase();
  const deal = await recomputeDeal(seed, round.roundId, round.game, subtle);
  return {
    kind: 'checked',
    actualCommitment,
    commitmentMatches: published === '' ? null : actualCommitment === published,
    deal,
    difference: round.shown ? dealDifference(deal, round.shown) : null,
  };
}

/** The most card codes a typed deal may hold: a whole deck (Andar Bahar can use 50). */
export const MAX_TYPED_CARDS = 52;

/**
 * What a player typed as the deal they saw, read for `game`: roulette's pocket ("17"), Worli
 * Matka's six digits, open then close ("169 062"), or card codes in dealing order ("7C TS QS";
 * "10H" is read as TH). The deal, or what is wrong with the text in words.
 */
export function parseTypedDeal(game: GameCode, text: string): { deal: Deal } | { problem: string } {
  const trimmed = text.trim();
  if (game === 'roulette') {
    const match = /^\d{1,2}$/.exec(trimmed);
    const pocket = match ? Number(trimmed) : NaN;
    return pocket <= 36 ? { deal: { pocket } } : { problem: i18n.t('casino:check.pocket') };
  }
  if (game === 'worli') {
    const digits = trimmed.replace(/[\s,-]/g, '');
    if (!/^\d{6}$/.test(digits)) return { problem: i18n.t('casino:check.sixDigits') };
    const d = [...digits].map(Number);
    return { deal: { matka: { open: [d[0], d[1], d[2]], close: [d[3], d[4], d[5]] } } };
  }
  const words = trimmed.split(/[\s,]+/).filter((word) => word !== '');
  if (words.length === 0) return { problem: i18n.t('casino:check.noCards') };
  if (words.length > MAX_TYPED_CARDS) return { problem: i18n.t('casino:check.tooManyCards', { max: MAX_TYPED_CARDS }) };
  const cards: string[] = [];
  for (const word of words) {
    const code = word.toUpperCase().replace(/^10/, 'T');
    if (!/^[A2-9TJQK][SHDC]$/.test(code)) return { problem: i18n.t('casino:check.notACard', { word }) };
    cards.push(code);
  }
  return { deal: { cards } };
}
