import type { GlobalSetting } from '../../api/global-setting';
import { i18n } from '../../i18n';
import { paymentGatewayOn } from '../../hooks/useGlobalSetting';
import { CONSOLE_PATH, hasParent, isConsoleUser, type UserInfo } from '../../lib/session';

type MenuKey = keyof (typeof import('../../i18n/locales/en/header.json'))['menu'];

export type MenuAction = 'buttonValues' | 'changePassword' | 'rules';

export interface MenuItem {
  /** In the language of the moment (the menu is built as it renders). */
  label: string;
  /** A page to open, or a modal. */
  to?: string;
  action?: MenuAction;
  testId: string;
}

/** Spec §2: Payment Statement and Deposit/Withdraw need payment_gateway = 1 and a parent. */
export function showPaymentItems(user: UserInfo | null, setting: GlobalSetting | null | undefined): boolean {
  return paymentGatewayOn(setting) && hasParent(user);
}

/** Spec §2: Live Casino Bets, Security Auth Verification and Change Password need a parent and a token. */
export function showParentTokenItems(user: UserInfo | null, token: string | null): boolean {
  return hasParent(user) && Boolean(token);
}

/**
 * The user menu's links and modals in the spec's order (Profit & Loss and Bet History added
 * after Current Bet; Safer Gambling, for a bettor, and Log-in History after Rules), the console
 * first for an admin or agent (the toggles and SignOut follow them).
 */
export function userMenuItems(user: UserInfo | null, setting: GlobalSetting | null | undefined, token: string | null): MenuItem[] {
  const payment = showPaymentItems(user, setting);
  const parentToken = showParentTokenItems(user, token);
  const t = (key: MenuKey) => i18n.t(`header:menu.${key}`);
  const items: (MenuItem | false)[] = [
    isConsoleUser(user) && { label: t('console'), to: CONSOLE_PATH, testId: 'menu-console' },
    { label: t('accountStatement'), to: '/report/account-statement', testId: 'menu-account-statement' },
    payment && { label: t('paymentStatement'), to: '/report/payment-withdraw', testId: 'menu-payment-statement' },
    { label: t('currentBet'), to: '/report/current-bet', testId: 'menu-current-bet' },
    // Beyond the spec's items (issue 32): after Current Bet, the spec's own items unchanged.
    { label: t('profitLoss'), to: '/report/profit-loss', testId: 'menu-profit-loss' },
    { label: t('betHistory'), to: '/report/bet-history', testId: 'menu-bet-history' },
    { label: t('casinoResult'), to: '/report/casino-result', testId: 'menu-casino-result' },
    parentToken && { label: t('liveCasinoBets'), to: '/report/live-casino-bets', testId: 'menu-live-casino-bets' },
    { label: t('buttonValues'), action: 'buttonValues', testId: 'menu-button-values' },
    parentToken && { label: t('securityAuth'), to: '/security-auth/', testId: 'menu-security-auth' },
    parentToken && { label: t('changePassword'), action: 'changePassword', testId: 'menu-change-password' },
    { label: t('rules'), action: 'rules', testId: 'menu-rules' },
    // Beyond the spec's items (issue 33), after them all. Limits and breaks are a bettor's own:
    // an admin or agent (who bets on nothing) is not offered to lock themselves out.
    !isConsoleUser(user) && { label: t('saferGambling'), to: '/safer-gambling', testId: 'menu-safer-gambling' },
    { label: t('loginHistory'), to: '/login-history', testId: 'menu-login-history' },
  ];
  return items.filter((item): item is MenuItem => Boolean(item));
}
