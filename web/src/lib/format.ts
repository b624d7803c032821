// Dates and money as the product shows them (spec §9): every figure of money on every page goes
// through formatMoney or formatMinorMoney here.

/** Asia/Kolkata is UTC+5:30 all year (no daylight saving since 1945), so a fixed offset is exact. */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');

function toIst(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : new Date(date.getTime() + IST_OFFSET_MS);
}

/** dd/MM/yyyy HH:mm:ss at UTC+5:30; an unreadable date gives an empty string. */
export function formatIstDateTime(value: string | number | Date): string {
  const d = toIst(value);
  if (!d) return '';
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}`;
}

/** yyyy-MM-dd of the given instant at UTC+5:30 (the date the server's filters take). */
export function istDateKey(value: string | number | Date = Date.now()): string {
  const d = toIst(value);
  if (!d) return '';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The yyyy-MM-dd `days` before the given one. */
export function shiftDateKey(dateKey: string, days: number): string {
  const d = new Date(`${dateKey}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * Minor units (1/100 of a rupee) as the product shows money everywhere: the rupee sign, Indian
 * digit grouping (the last three digits, then pairs: ₹1,00,000.00), exactly 2 decimals, and a
 * minus before the sign for a loss (-₹1,250.50). Integer arithmetic only, so nothing rounds.
 */
export function formatMinorMoney(minor: number): string {
  if (!Number.isFinite(minor)) return '₹0.00';
  const whole = Math.round(minor);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const rupees = String(Math.floor(abs / 100));
  const paise = String(abs % 100).padStart(2, '0');
  const last3 = rupees.slice(-3);
  const rest = rupees.slice(0, -3);
  const grouped = rest ? `${rest.replace(/\B(?=(\d{2})+$)/g, ',')},${last3}` : last3;
  return `${sign}₹${grouped}.${paise}`;
}

/** Money as the server sends it (a JSON number with 2 decimals), shown as {@link formatMinorMoney} does. */
export function formatMoney(amount: number | string | null | undefined): string {
  const n = Number(amount);
  return formatMinorMoney(Number.isFinite(n) && amount !== null && amount !== '' ? Math.round(n * 100) : 0);
}
