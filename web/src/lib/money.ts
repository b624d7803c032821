// Money typed into the forms and bet slips, sent to the server and read back from it: integer
// minor units (1/100), so nothing rounds or compares through floating point.

/** Money as the server sends it (a JSON number with 2 decimals) in minor units. */
export function toMinor(amount: number): number {
  return Math.round(amount * 100);
}

/** A stake as typed ("100", "250.5", "99.50") in minor units; null when it is not a plain amount. */
export function parseStake(text: string): number | null {
  const match = /^\s*(\d{1,10})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Minor units as a request carries an amount: a plain decimal with 2 places ("-150.05"); pages
 * show money through lib/format's formatMinorMoney. */
export function decimalText(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
