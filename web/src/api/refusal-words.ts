// A refused bet in the bettor's language. The server sends a refusal's facts beside its English
// message (`data.refusal` of the error envelope, crates/kit/src/refusal.rs: the kind and the
// amounts in paise); the words are the client's, from the common catalogue, and the amounts go
// through lib/format.ts like every figure of money, the times like every date (IST). A refusal
// this client does not know keeps the server's message. The bettor's own limits refuse bets,
// deposit requests and, during a time-out or self-exclusion, log-ins (docs/api.md "Safer gambling").
import { i18n } from '../i18n';
import { formatIstDateTime, formatMinorMoney } from '../lib/format';

interface RefusalFacts {
  refusal?: unknown;
  needed_minor?: number | null;
  available_minor?: number;
  limit_minor?: number;
  this_bet?: boolean;
  cap_minor?: number;
  min_minor?: number;
  max_minor?: number;
  status?: string;
  runner_id?: number;
  /** A cash out's: the runner named, the odds in hundredths, whether the bettor has bets here. */
  runner?: string;
  price?: number;
  has_bets?: boolean;
  stake_minor?: number;
  /** A loss or deposit limit's: what is left under it, and the period whose limit binds. */
  left_minor?: number;
  period?: unknown;
  /** A time-out's or self-exclusion's end (epoch ms). */
  until_ms?: number;
}

/** The periods a loss or deposit limit counts over (keys of `common:refusal.lossLimit` and the like). */
const PERIODS = ['day', 'week', 'month'] as const;
type Period = (typeof PERIODS)[number];

function periodOf(facts: RefusalFacts): Period | null {
  return PERIODS.find((p) => p === facts.period) ?? null;
}

const money = (minor: number | null | undefined) => formatMinorMoney(minor ?? 0);

/** The words for the envelope `data` of a refusal, or null when it carries none this client knows. */
export function refusalWords(data: unknown): string | null {
  const facts = (data as { refusal?: RefusalFacts } | null)?.refusal;
  if (!facts || typeof facts !== 'object') return null;
  switch (facts.refusal) {
    case 'insufficient_funds':
      return typeof facts.needed_minor === 'number'
        ? i18n.t('common:refusal.insufficientFunds', { needed: money(facts.needed_minor), available: money(Math.max(0, facts.available_minor ?? 0)) })
        : i18n.t('common:refusal.insufficientFundsAvailable', { available: money(facts.available_minor) });
    case 'exposure_limit':
      return facts.this_bet
        ? i18n.t('common:refusal.exposureLimitBet', { limit: money(facts.limit_minor) })
        : i18n.t('common:refusal.exposureLimit', { limit: money(facts.limit_minor) });
    case 'betting_locked':
      return i18n.t('common:refusal.bettingLocked');
    case 'stake_cap':
      return i18n.t('common:refusal.stakeCap', { cap: money(facts.cap_minor) });
    case 'stake_below_minimum':
      return i18n.t('common:refusal.stakeBelowMinimum', { min: money(facts.min_minor) });
    case 'stake_above_maximum':
      return i18n.t('common:refusal.stakeAboveMaximum', { max: money(facts.max_minor) });
    case 'market_not_open':
      switch (facts.status) {
        case 'ball_running':
          return i18n.t('common:refusal.ballRunning');
        case 'suspended':
          return i18n.t('common:refusal.suspended');
        default:
          return i18n.t('common:refusal.notOpen');
      }
    case 'suspended_during_delay':
      return i18n.t('common:refusal.suspendedDuringDelay');
    case 'market_closed':
      return i18n.t('common:refusal.marketClosed');
    case 'unknown_runner':
      return i18n.t('common:refusal.unknownRunner', { runner: facts.runner_id });
    case 'runner_removed':
      return i18n.t('common:refusal.runnerRemoved', { runner: facts.runner_id });
    case 'cash_out_not_offered':
      return i18n.t('common:refusal.cashOutNotOffered');
    case 'nothing_to_cash_out':
      return facts.has_bets ? i18n.t('common:refusal.alreadyFlat') : i18n.t('common:refusal.noBetsToCashOut');
    case 'cash_out_no_price':
      return i18n.t('common:refusal.cashOutNoPrice', { runner: facts.runner });
    case 'cash_out_not_enough':
      return i18n.t('common:refusal.cashOutNotEnough', { runner: facts.runner, needed: money(facts.needed_minor), available: money(facts.available_minor) });
    case 'cash_out_own_order':
      return i18n.t('common:refusal.cashOutOwnOrder', { runner: facts.runner, price: (facts.price ?? 0) / 100 });
    case 'cash_out_above_maximum':
      return i18n.t('common:refusal.cashOutAboveMaximum', { runner: facts.runner, stake: money(facts.stake_minor), max: money(facts.max_minor) });
    case 'cash_out_prices_moved':
      return i18n.t('common:refusal.cashOutPricesMoved');
    case 'loss_limit': {
      const period = periodOf(facts);
      if (!period) return null;
      const values = { limit: money(facts.limit_minor), left: money(facts.left_minor) };
      return (facts.left_minor ?? 0) > 0 ? i18n.t(`common:refusal.lossLimit.${period}`, values) : i18n.t(`common:refusal.lossLimitReached.${period}`, values);
    }
    case 'deposit_limit': {
      const period = periodOf(facts);
      if (!period) return null;
      const values = { limit: money(facts.limit_minor), left: money(facts.left_minor) };
      return (facts.left_minor ?? 0) > 0 ? i18n.t(`common:refusal.depositLimit.${period}`, values) : i18n.t(`common:refusal.depositLimitReached.${period}`, values);
    }
    case 'own_stake_limit':
      return i18n.t('common:refusal.ownStakeLimit', { limit: money(facts.limit_minor) });
    case 'timed_out':
      return typeof facts.until_ms === 'number' ? i18n.t('common:refusal.timedOut', { until: formatIstDateTime(facts.until_ms) }) : null;
    case 'self_excluded':
      return typeof facts.until_ms === 'number' ? i18n.t('common:refusal.selfExcluded', { until: formatIstDateTime(facts.until_ms) }) : null;
    default:
      return null;
  }
}
