import { describe, expect, it } from 'vitest';
import { dayText, parseDayText } from './DateRange';

describe('report dates as dd/mm/yyyy', () => {
  it('reads a day typed as the tables write it, and only days that exist', () => {
    expect(parseDayText('24/11/2026')).toBe('2026-11-24');
    expect(parseDayText(' 1/2/2026 ')).toBe('2026-02-01');
    expect(parseDayText('01-02-2026')).toBe('2026-02-01');
    expect(parseDayText('29/02/2024')).toBe('2024-02-29');
    expect(parseDayText('29/02/2026')).toBeNull();
    expect(parseDayText('31/04/2026')).toBeNull();
    expect(parseDayText('2026-11-24')).toBeNull();
    expect(parseDayText('11/24/2026')).toBeNull();
    expect(parseDayText('')).toBeNull();
  });

  it('writes a day key as dd/mm/yyyy', () => {
    expect(dayText('2026-11-24')).toBe('24/11/2026');
    expect(dayText('')).toBe('');
  });
});
