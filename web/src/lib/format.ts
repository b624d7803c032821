// Dates and money as the product shows them (spec §9).

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

/** Money as the server sends it (a JSON number with 2 decimals), shown with exactly 2 decimals. */
export function formatMoney(amount: number | string | null | undefined): string {
  const n = Number(amount);
  return Number.isFinite(n) ? n.toFixed(2) : '0.00';
}
