import { describe, expect, it } from 'vitest';
import { formatIstDateTime, formatMinorMoney, formatMoney, istDateKey, shiftDateKey } from './format';

describe('dates at UTC+5:30 as dd/MM/yyyy HH:mm:ss', () => {
  it('adds 5 h 30 min to UTC', () => {
    expect(formatIstDateTime('2026-11-22T14:00:00.000Z')).toBe('22/11/2026 19:30:00');
    expect(formatIstDateTime('2026-01-05T03:04:05.000Z')).toBe('05/01/2026 08:34:05');
  });

  it('rolls over the day, month and year', () => {
    expect(formatIstDateTime('2026-12-31T18:45:59.000Z')).toBe('01/01/2027 00:15:59');
  });

  it('gives an empty text for an unreadable date', () => {
    expect(formatIstDateTime('not a date')).toBe('');
  });

  it('gives the IST calendar date for filters', () => {
    expect(istDateKey('2026-11-22T20:00:00.000Z')).toBe('2026-11-23');
    expect(shiftDateKey('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('money', () => {
  it('groups rupees the Indian way with the rupee sign and 2 decimals', () => {
    expect(formatMoney(100000)).toBe('₹1,00,000.00');
    expect(formatMoney(1500)).toBe('₹1,500.00');
    expect(formatMoney(12345678.9)).toBe('₹1,23,45,678.90');
    expect(formatMoney(999)).toBe('₹999.00');
    expect(formatMoney(0.05)).toBe('₹0.05');
  });

  it("puts a loss's minus before the sign", () => {
    expect(formatMoney(-20.5)).toBe('-₹20.50');
    expect(formatMinorMoney(-1_250_50)).toBe('-₹1,250.50');
  });

  it('reads minor units without floating point', () => {
    expect(formatMinorMoney(10_000_000_00)).toBe('₹1,00,00,000.00');
    expect(formatMinorMoney(1)).toBe('₹0.01');
    // 0.1 + 0.2 as a server figure still shows 0.30.
    expect(formatMoney(0.1 + 0.2)).toBe('₹0.30');
  });

  it('shows nothing owed for a missing figure', () => {
    expect(formatMoney(undefined)).toBe('₹0.00');
    expect(formatMoney(null)).toBe('₹0.00');
    expect(formatMoney('not money')).toBe('₹0.00');
  });
});
