// A notice in the app's language, from the facts it carries (crates/api/src/notices.rs: the
// amounts, the bet as the bettor names it, the match and market). The server's `text` says the
// same in English; it stands only where a notice carries no facts (a server of an older version).
// A log-in from a new device is a notice too: it names the device and the address, not a bet.
import type { Notice } from '../../api/notice-feed';
import { i18n } from '../../i18n';
import { formatMoney } from '../../lib/format';

/** "back bet on India at 2.5", "Yes bet at 45". */
function betWords(bet: NonNullable<Notice['bet']>): string {
  const side = i18n.t(`notices:side.${bet.side}`);
  if (bet.line !== null) return i18n.t('notices:bet.atLine', { side, line: bet.line });
  if (bet.selection_name !== null) return i18n.t('notices:bet.onRunner', { side, runner: bet.selection_name, price: bet.price });
  return i18n.t('notices:bet.atPrice', { side, price: bet.price });
}

/** What the notice says happened, in a sentence. */
export function noticeWords(notice: Notice): string {
  if (notice.kind === 'new_device') {
    if (!notice.login) return notice.text;
    const { device, ip } = notice.login;
    return ip ? i18n.t('notices:say.newDevice', { device, ip }) : i18n.t('notices:say.newDeviceNoIp', { device });
  }
  if (notice.amount === undefined || notice.match_name == null) return notice.text;
  const place = `${notice.match_name} · ${notice.market_name ?? ''}`;
  const amount = formatMoney(notice.amount);
  const bet = notice.bet;
  if (!bet) {
    if (notice.kind === 'voided') return i18n.t('notices:say.marketVoided', { place });
    const result =
      notice.amount > 0
        ? i18n.t('notices:say.won', { amount })
        : notice.amount < 0
          ? i18n.t('notices:say.lost', { amount: formatMoney(-notice.amount) })
          : i18n.t('notices:say.even');
    return notice.commission > 0
      ? i18n.t('notices:say.marketSettledNet', {
          place,
          result,
          commission: formatMoney(notice.commission),
          net: formatMoney(notice.amount - notice.commission),
        })
      : i18n.t('notices:say.marketSettled', { place, result });
  }
  const values = { amount, stake: formatMoney(bet.stake), bet: betWords(bet), place };
  switch (notice.kind) {
    case 'matched':
      return i18n.t('notices:say.matched', values);
    case 'partially_matched':
      return i18n.t('notices:say.partiallyMatched', values);
    case 'lapsed':
      return i18n.t('notices:say.lapsed', values);
    case 'cancelled':
      return i18n.t('notices:say.cancelled', values);
    case 'voided':
      return i18n.t('notices:say.betVoided', values);
    case 'settled':
      return i18n.t('notices:say.betSettled', values);
  }
  return notice.text;
}
