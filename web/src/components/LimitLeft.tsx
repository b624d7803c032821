// What the bettor's own loss or deposit limit leaves (docs/api.md "Safer gambling", `left` of
// `GET user/limits`), said where it matters: the bet slips and the casino table (loss), the
// deposit form (deposit). Nothing shows without such a limit.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getLimits, LIMITS_KEY, type LimitLeft as Left } from '../api/limits';
import { i18n } from '../i18n';
import { formatMoney } from '../lib/format';

/** "You can lose ₹1,240.00 more today.", or that the limit is reached when nothing is left. */
export function limitLeftWords(left: Left): string {
  const amount = formatMoney(left.value);
  if (left.kind === 'loss') {
    return left.value > 0 ? i18n.t(`common:left.loss.${left.period}`, { amount }) : i18n.t(`common:left.lossReached.${left.period}`);
  }
  return left.value > 0 ? i18n.t(`common:left.deposit.${left.period}`, { amount }) : i18n.t(`common:left.depositReached.${left.period}`);
}

/** The line for the bettor's `kind` of limit, read through the limits' query (fetched again after each bet: hooks/useBalance). */
export function LimitLeftLine({ kind, className = 'limit-left' }: { kind: Left['kind']; className?: string }) {
  // Re-rendered in the language of the moment.
  useTranslation();
  const limits = useQuery({ queryKey: LIMITS_KEY, queryFn: getLimits, retry: false });
  const left = (limits.data?.left ?? []).find((l) => l.kind === kind);
  if (!left) return null;
  return (
    <p className={`${className}${left.value > 0 ? '' : ' reached'}`} data-testid={`limit-left-${kind}`}>
      {limitLeftWords(left)}
    </p>
  );
}
