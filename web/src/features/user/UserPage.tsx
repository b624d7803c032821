import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { useBalance } from '../../hooks/useBalance';
import { formatMoney } from '../../lib/format';
import { hasParent, useSession } from '../../lib/session';

/** /user: the account at a glance, with links to its pages. */
export function UserPage() {
  const { t } = useTranslation(['settings', 'header']);
  const user = useSession();
  const balance = useBalance(Boolean(user));
  const b = balance.data;
  return (
    <PageCard title={t('account.title')} testId="user-page">
      <dl className="summary">
        <dt>{t('account.userName')}</dt>
        <dd>{user?.user_name}</dd>
        <dt>{t('account.balance')}</dt>
        <dd>{b ? formatMoney(b.total_balance) : '…'}</dd>
        <dt>{t('account.exposure')}</dt>
        <dd>{b ? formatMoney(Math.abs(b.liability)) : '…'}</dd>
        <dt>{t('account.agent')}</dt>
        <dd>{hasParent(user) ? t('account.agentYes') : t('account.agentNone')}</dd>
      </dl>
      <ul className="link-list">
        <li><Link to="/report/account-statement">{t('header:menu.accountStatement')}</Link></li>
        <li><Link to="/report/current-bet">{t('header:menu.currentBet')}</Link></li>
        <li><Link to="/report/profit-loss">{t('header:menu.profitLoss')}</Link></li>
        <li><Link to="/report/bet-history">{t('header:menu.betHistory')}</Link></li>
        <li><Link to="/setting/button-values">{t('header:menu.buttonValues')}</Link></li>
        <li><Link to="/setting/change-password">{t('header:menu.changePassword')}</Link></li>
        <li><Link to="/safer-gambling">{t('header:menu.saferGambling')}</Link></li>
        <li><Link to="/login-history">{t('header:menu.loginHistory')}</Link></li>
      </ul>
    </PageCard>
  );
}
