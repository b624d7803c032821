// @ts-check
// Money as the pages show it (web/src/lib/format.ts): the rupee sign, Indian grouping and two
// decimals, a loss's minus first. The journeys compute figures in plain numbers and compare the
// page's text with this.
//
//   rupees('100000.00') === '₹1,00,000.00';  rupees(-150) === '-₹150.00';  rupees(1_250_50, 'minor')

/**
 * @param {number | string} amount  rupees (a number or plain text such as '150.00'), or minor units with 'minor'
 * @param {'rupees' | 'minor'} [unit]
 */
export function rupees(amount, unit = 'rupees') {
  const minor = unit === 'minor' ? Math.round(Number(amount)) : Math.round(Number(amount) * 100);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = String(Math.floor(abs / 100));
  const last3 = whole.slice(-3);
  const rest = whole.slice(0, -3);
  const grouped = rest ? `${rest.replace(/\B(?=(\d{2})+$)/g, ',')},${last3}` : last3;
  return `${sign}₹${grouped}.${String(abs % 100).padStart(2, '0')}`;
}

/** A pattern matching exactly this money text. @param {number | string} amount @param {'rupees' | 'minor'} [unit] */
export function exactly(amount, unit = 'rupees') {
  return new RegExp(`^${rupees(amount, unit).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
