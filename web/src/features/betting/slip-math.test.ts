import { describe, expect, it } from 'vitest';
import { commissionMinor, decimalText, divideBy100HalfEven, parseStake, preview, projectPositions, stakeProblem } from './slip-math';

// Every expected figure below is worked by hand (minor units: 100 = 1.00).
describe('the bet slip preview', () => {
  it('exchange back: profit = stake × (odds − 1), liability = stake', () => {
    expect(preview('exchange', 'back', 250, 100_00)).toEqual({ profit: 150_00, liability: 100_00 });
    expect(preview('exchange', 'back', 101, 100_00)).toEqual({ profit: 1_00, liability: 100_00 });
    expect(preview('exchange', 'back', 100_000, 10_00)).toEqual({ profit: 9_990_00, liability: 10_00 });
  });

  it('exchange lay: liability = stake × (odds − 1), profit = stake', () => {
    expect(preview('exchange', 'lay', 250, 100_00)).toEqual({ profit: 100_00, liability: 150_00 });
    expect(preview('exchange', 'lay', 1_000, 55_50)).toEqual({ profit: 55_50, liability: 499_50 });
  });

  it('bookmaker rate r: back profit = stake × r / 100; lay liability the same', () => {
    expect(preview('bookmaker', 'back', 45, 200_00)).toEqual({ profit: 90_00, liability: 200_00 });
    expect(preview('bookmaker', 'lay', 47, 200_00)).toEqual({ profit: 200_00, liability: 94_00 });
  });

  it('fancy: yes wins stake × rate / 100 or loses the stake; no is the mirror', () => {
    expect(preview('fancy', 'yes', 100, 500_00)).toEqual({ profit: 500_00, liability: 500_00 });
    expect(preview('fancy', 'yes', 90, 500_00)).toEqual({ profit: 450_00, liability: 500_00 });
    expect(preview('fancy', 'no', 110, 500_00)).toEqual({ profit: 500_00, liability: 550_00 });
  });

  it('rounds an exchange profit down and a house profit half to even, as the server stores them', () => {
    // 0.05 × (2.50 − 1) = 0.075: 7.5 minor units → 7 on the exchange; at bookmaker rate 150 → 8.
    expect(preview('exchange', 'back', 250, 5).profit).toBe(7);
    expect(preview('exchange', 'lay', 250, 5).liability).toBe(7);
    expect(preview('bookmaker', 'back', 150, 5).profit).toBe(8);
    // 0.01 × 0.50 = 0.005 → 0 either way; 0.03 × 0.50 = 1.5 → 1 on the exchange, 2 at rate 50.
    expect(preview('exchange', 'back', 150, 1).profit).toBe(0);
    expect(preview('exchange', 'back', 150, 3).profit).toBe(1);
    expect(preview('bookmaker', 'back', 50, 3).profit).toBe(2);
    expect(divideBy100HalfEven(-150)).toBe(-2);
    expect(divideBy100HalfEven(250)).toBe(2);
  });

  it('reads stakes exactly and says what is wrong with them', () => {
    expect(parseStake('100')).toBe(100_00);
    expect(parseStake('250.5')).toBe(250_50);
    expect(parseStake('10.005')).toBeNull();
    expect(stakeProblem('', 100, 500_000)).toBe('Enter a stake.');
    expect(stakeProblem('abc', 100, 500_000)).toBe('The stake must be a number such as 100 or 250.50.');
    expect(stakeProblem('1e3', 100, 500_000)).toBe('The stake must be a number such as 100 or 250.50.');
    expect(stakeProblem('0', 100, 500_000)).toBe('The stake must be more than 0.');
    expect(stakeProblem('99.99', 100, 500_000)).toBe('The minimum stake here is ₹100.00.');
    expect(stakeProblem('500000.01', 100, 500_000)).toBe('The maximum stake here is ₹5,00,000.00.');
    expect(stakeProblem('100', 100, 500_000)).toBeNull();
    expect(decimalText(-150_05)).toBe('-150.05');
  });

  it("projects each runner's P&L from the stored position and the slip's bet", () => {
    const runners = [
      { selection_id: 1, position: 20 },
      { selection_id: 2, position: -10.5 },
      { selection_id: 3, position: 0 },
    ];
    // Back runner 1 for 100 at 3.00: runner 1 +200, the others −100.
    expect([...projectPositions(runners, { pricing: 'exchange', selectionId: 1, side: 'back', price: 300, stake: 100_00 })]).toEqual([
      [1, 220_00],
      [2, -110_50],
      [3, -100_00],
    ]);
    // Lay runner 2 for 100 at 3.00: runner 2 −200, the others +100.
    expect([...projectPositions(runners, { pricing: 'exchange', selectionId: 2, side: 'lay', price: 300, stake: 100_00 })]).toEqual([
      [1, 120_00],
      [2, -210_50],
      [3, 100_00],
    ]);
    // Bookmaker back at rate 45 for 200: +90 on the runner, −200 elsewhere.
    expect(projectPositions(runners, { pricing: 'bookmaker', selectionId: 3, side: 'back', price: 45, stake: 200_00 }).get(3)).toBe(90_00);
  });
});

describe('commission on winnings', () => {
  it('is winnings × commission_bp / 10 000, half to even, as settlement takes it; nothing on a loss or at 0 bp', () => {
    expect(commissionMinor(150_00, 200)).toBe(3_00);
    expect(commissionMinor(45_00, 250)).toBe(1_12); // 112.5 paise → 112 (even)
    expect(commissionMinor(25, 200)).toBe(0); // 0.5 paisa → 0 (even)
    expect(commissionMinor(75, 200)).toBe(2); // 1.5 paise → 2 (even)
    expect(commissionMinor(-100_00, 200)).toBe(0);
    expect(commissionMinor(100_00, 0)).toBe(0);
  });
});
