import { describe, expect, it } from 'vitest';
import { formatIstDateTime, formatMoney, istDateKey, shiftDateKey } from './format';

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
  it('shows 2 decimals', () => {
    expect(formatMoney(1500)).toBe('1500.00');
    expect(formatMoney(-20.5)).toBe('-20.50');
    expect(formatMoney(undefined)).toBe('0.00');
  });
});
