// ladder.ts against the vectors the Rust core writes (crates/core/tests/ladder_vectors.rs):
// the slip must step, round and judge odds exactly as the exchange does.
import { describe, expect, it } from 'vitest';
import { LADDER, MAX_PRICE, MIN_PRICE, formatOdds, isOnLadder, nearestPrices, oddsProblem, parseOddsText, tickDown, tickUp } from './ladder';
import vectors from './ladder-vectors.json';

type Verdict =
  | { ok: number }
  | { off_ladder: [number, number]; message: string }
  | { out_of_range: number; message: string }
  | { malformed: true };

const ladder: { tick: number; price: number; text: string; up: number | null; down: number | null }[] = vectors.ladder;
const nearest = vectors.nearest as [number, number | null, number | null][];
const texts = vectors.texts as { text: string; verdict: Verdict }[];

describe('the odds ladder agrees with the Rust core', () => {
  it('has the same prices, texts and ticks up and down (staying put at the ends)', () => {
    expect(LADDER).toEqual(ladder.map((v) => v.price));
    for (const v of ladder) {
      expect(LADDER.indexOf(v.price), `tick of ${v.text}`).toBe(v.tick);
      expect(formatOdds(v.price)).toBe(v.text);
      expect(tickUp(v.price), `${v.text} up`).toBe(v.up ?? v.price);
      expect(tickDown(v.price), `${v.text} down`).toBe(v.down ?? v.price);
    }
  });

  it('rounds values between prices to the same neighbours, and ticks from them to those', () => {
    for (const [value, below, above] of nearest) {
      expect(nearestPrices(value), `around ${value}`).toEqual({ below, above });
      expect(isOnLadder(value), `${value} on the ladder`).toBe(below === value && above === value);
      if (!isOnLadder(value)) {
        expect(tickUp(value), `${value} up`).toBe(above ?? MAX_PRICE);
        expect(tickDown(value), `${value} down`).toBe(below ?? MIN_PRICE);
      }
    }
  });

  it('reads typed odds as the server does, and says the same about off-ladder ones', () => {
    const range = `Odds run from ${formatOdds(MIN_PRICE)} to ${formatOdds(MAX_PRICE)}.`;
    for (const { text, verdict } of texts) {
      const said = oddsProblem(text);
      if ('ok' in verdict) {
        expect(said, JSON.stringify(text)).toBeNull();
        expect(parseOddsText(text), JSON.stringify(text)).toBe(verdict.ok);
      } else if ('off_ladder' in verdict) {
        expect(said, JSON.stringify(text)).toBe(`${verdict.message}.`);
      } else if ('out_of_range' in verdict) {
        expect(said, JSON.stringify(text)).toBe(range);
      } else {
        expect(said, JSON.stringify(text)).toBe(text.trim() === '' ? 'Enter the odds.' : 'Odds must be a number such as 1.5, 2.02 or 10.');
      }
    }
  });
});
