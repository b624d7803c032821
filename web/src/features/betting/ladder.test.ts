import { describe, expect, it } from 'vitest';
import { LADDER, formatOdds, oddsProblem, parseOddsText, tickDown, tickUp } from './ladder';

// Hand-computed from the exchange's ladder rules (ARCHITECTURE.md §2), not from the table in ladder.ts.
describe('the odds ladder', () => {
  it('has the 350 prices from 1.01 to 1000, each one rule step apart', () => {
    expect(LADDER).toHaveLength(350);
    expect(LADDER[0]).toBe(101);
    expect(LADDER[349]).toBe(100_000);
    expect(LADDER.indexOf(200)).toBe(99);
    expect(LADDER.indexOf(202)).toBe(100);
  });

  it('steps one tick up across every segment boundary', () => {
    const cases: [string, string][] = [
      ['1.01', '1.02'],
      ['1.98', '1.99'],
      ['1.99', '2.00'],
      ['2.00', '2.02'],
      ['2.98', '3.00'],
      ['3.00', '3.05'],
      ['3.95', '4.00'],
      ['4.00', '4.10'],
      ['6.00', '6.20'],
      ['9.80', '10.00'],
      ['10.00', '10.50'],
      ['20.00', '21.00'],
      ['30.00', '32.00'],
      ['50.00', '55.00'],
      ['95.00', '100.00'],
      ['100.00', '110.00'],
      ['990.00', '1000.00'],
    ];
    for (const [from, to] of cases) {
      expect(formatOdds(tickUp(parseOddsText(from)!)), `${from} up`).toBe(to);
      expect(formatOdds(tickDown(parseOddsText(to)!)), `${to} down`).toBe(from);
    }
  });

  it('walks 1.99 → 2.00 → 2.02 and back', () => {
    let price = parseOddsText('1.99')!;
    price = tickUp(price);
    expect(formatOdds(price)).toBe('2.00');
    price = tickUp(price);
    expect(formatOdds(price)).toBe('2.02');
    price = tickDown(tickDown(price));
    expect(formatOdds(price)).toBe('1.99');
  });

  it('stops at 1.01 and 1000', () => {
    expect(formatOdds(tickDown(101))).toBe('1.01');
    expect(formatOdds(tickUp(100_000))).toBe('1000.00');
  });

  it('moves an off-ladder price to the nearest valid one in the direction asked', () => {
    expect(formatOdds(tickUp(201))).toBe('2.02');
    expect(formatOdds(tickDown(201))).toBe('2.00');
    expect(formatOdds(tickUp(100))).toBe('1.01');
  });

  it('reads odds text exactly and says what is wrong in words', () => {
    expect(parseOddsText('2')).toBe(200);
    expect(parseOddsText('2.5')).toBe(250);
    expect(parseOddsText('2.020')).toBe(202);
    expect(parseOddsText('abc')).toBeNull();
    expect(oddsProblem('2.02')).toBeNull();
    expect(oddsProblem('1000')).toBeNull();
    expect(oddsProblem('')).toBe('Enter the odds.');
    expect(oddsProblem('two')).toBe('Odds must be a number such as 1.5, 2.02 or 10.');
    expect(oddsProblem('2.01')).toBe('2.01 is not a valid price: the nearest valid prices are 2.00 and 2.02.');
    expect(oddsProblem('2.015')).toBe('2.015 is not a valid price: the nearest valid prices are 2.00 and 2.02.');
    expect(oddsProblem('1')).toBe('Odds run from 1.01 to 1000.00.');
    expect(oddsProblem('1001')).toBe('Odds run from 1.01 to 1000.00.');
  });
});
