// fair-deal.ts against the vectors the Rust crate writes (crates/casino/tests/deal_vectors.rs):
// a player's browser must deal every round exactly as the server dealt it.
import { describe, expect, it } from 'vitest';
import { checkCommitment, seedBytes } from './fairness';
import vectors from './deal-vectors.json';
import {
  FairStream,
  GAMES,
  baccaratCardsUsed,
  belowFrom,
  courtAndAcePack,
  dealDifference,
  dealText,
  isGameCode,
  parseDeal,
  recomputeDeal,
  shoe,
  standardDeck,
  type Deal,
} from './fair-deal';

const subtle = globalThis.crypto.subtle;

function bytes(seedHex: string): Uint8Array<ArrayBuffer> {
  const seed = seedBytes(seedHex);
  if (typeof seed === 'string') throw new Error(`bad seed in the vectors: ${seed}`);
  return seed;
}

const packs: Record<string, () => string[]> = { deck: standardDeck, bollywood: courtAndAcePack, shoe: () => shoe(8) };

describe('the dealing agrees with the Rust crate', () => {
  it('draws the same below(n), rejections included', async () => {
    expect(vectors.draws.length).toBeGreaterThan(0);
    for (const v of vectors.draws) {
      const stream = await FairStream.open(bytes(v.seed), v.round_id, subtle);
      const values = [];
      for (let i = 0; i < v.values.length; i += 1) values.push(await stream.below(v.n));
      expect(values, `${v.round_id} under ${v.seed}`).toEqual(v.values);
    }
  });

  it('shuffles every pack to the same order', async () => {
    expect(new Set(vectors.shuffles.map((v) => v.pack))).toEqual(new Set(Object.keys(packs)));
    for (const v of vectors.shuffles) {
      const pack = packs[v.pack]();
      await (await FairStream.open(bytes(v.seed), v.round_id, subtle)).shuffle(pack);
      expect(pack, `${v.pack} ${v.round_id}`).toEqual(v.cards);
    }
  });

  it('plays every cell of the baccarat drawing rules the same', () => {
    const coups = vectors.coups as [string, number][];
    expect(coups).toHaveLength(1000);
    for (const [cards, used] of coups) expect(baccaratCardsUsed(cards.split(' ')), cards).toBe(used);
  });

  it('deals every game the same, with the same commitment', async () => {
    expect(new Set(vectors.deals.map((v) => v.game))).toEqual(new Set(GAMES.map((g) => g.code)));
    for (const v of vectors.deals) {
      if (!isGameCode(v.game)) throw new Error(`unknown game ${v.game}`);
      expect(await checkCommitment(v.seed, v.commitment, subtle), `commitment of ${v.seed}`).toEqual({ kind: 'match', actual: v.commitment });
      const deal = await recomputeDeal(bytes(v.seed), v.round_id, v.game, subtle);
      expect(deal, `${v.game} ${v.round_id}`).toEqual(v.deal);
      expect(parseDeal(v.deal)).toEqual(v.deal);
    }
  });
});

describe('the stream', () => {
  it('draws again when a number falls in the biased tail', async () => {
    // n = 3·2³⁰ + 1: limit = 2³² − (2³² mod n) = n, so 0xffffffff is rejected and 5 answers 5.
    const script = [0xffffffff, 0xc0000001, 5];
    expect(await belowFrom(() => Promise.resolve(script.shift()!), 3 * 2 ** 30 + 1)).toBe(5);
    expect(script).toEqual([]);
    // n = 2³²: nothing is rejected.
    expect(await belowFrom(() => Promise.resolve(0xffffffff), 2 ** 32)).toBe(0xffffffff);
    await expect(belowFrom(() => Promise.resolve(0), 0)).rejects.toThrow('below(0)');
  });

  it('refuses a round id the server could not have made', async () => {
    const seed = bytes('00'.repeat(32));
    await expect(FairStream.open(seed, '', subtle)).rejects.toThrow('1 to 128 bytes');
    await expect(FairStream.open(seed, 'ம'.repeat(43), subtle)).rejects.toThrow('1 to 128 bytes'); // 129 bytes
    await expect(FairStream.open(seed, 'x'.repeat(128), subtle)).resolves.toBeInstanceOf(FairStream);
  });
});

describe('deals in words', () => {
  const cards = (text: string): Deal => ({ cards: text.split(' ') });

  it('reads only the three shapes the server sends', () => {
    expect(parseDeal({ pocket: 21 })).toEqual({ pocket: 21 });
    expect(parseDeal({ matka: { open: [1, 6, 9], close: [0, 6, 2] } })).toEqual({ matka: { open: [1, 6, 9], close: [0, 6, 2] } });
    for (const bad of [null, 'AS', {}, { cards: [1] }, { matka: { open: [1, 2], close: [1, 2, 3] } }]) expect(parseDeal(bad)).toBeNull();
  });

  it('says where a deal differs', () => {
    expect(dealText(cards('7C TS QS'))).toBe('7C TS QS');
    expect(dealText({ matka: { open: [1, 6, 9], close: [0, 6, 2] } })).toBe('open 1 6 9, close 0 6 2');
    expect(dealDifference(cards('7C TS QS'), cards('7C TS QS'))).toBeNull();
    expect(dealDifference(cards('7C TS QS'), cards('7C TS QH'))).toBe('card 3: the seed deals QS, the round shows QH');
    expect(dealDifference(cards('AD AC'), cards('AD 2C AC'))).toBe('card 2: the seed deals AC, the round shows 2C');
    expect(dealDifference(cards('TH JD 6D KS'), cards('TH JD 6D KS 6C'))).toBe('the round shows 5 cards; the seed deals 4');
    expect(dealDifference({ pocket: 21 }, { pocket: 12 })).toBe('the seed deals pocket 21, the round shows pocket 12');
    expect(dealDifference({ pocket: 21 }, { pocket: 21 })).toBeNull();
  });
});
