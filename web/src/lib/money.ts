// Money typed into the bet slips (sports and casino) and sent to the server: integer minor units (1/100), so
// nothing rounds through floating point.

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
