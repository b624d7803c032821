import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { useBalance } from '../../hooks/useBalance';
import { formatMoney } from '../../lib/format';
import { hasParent, useSession } from '../../lib/session';

/** /user: the account at a glance, with links to its pages. */
export function UserPage() {
  const user = useSession();
  const balance = useBalance(Boolean(user));
  const b = balance.data;
  return (
    <PageCard title="My Account" testId="user-page">
      <dl className="summary">
        <dt>User name</dt>
        <dd>{user?.user_name}</dd>
        <dt>Balance</dt>
        <dd>{b ? formatMoney(b.total_balance) : '…'}</dd>
        <dt>Exposure</dt>
        <dd>{b ? formatMoney(Math.abs(b.liability)) : '…'}</dd>
        <dt>Agent</dt>
        <dd>{hasParent(user) ? 'Yes' : 'None'}</dd>
      </dl>
      <ul className="link-list">
        <li><Link to="/report/account-statement">Account Statement</Link></li>
        <li><Link to="/report/current-bet">Current Bet</Link></li>
        <li><Link to="/report/profit-loss">Profit &amp; Loss</Link></li>
        <li><Link to="/report/bet-history">Bet History</Link></li>
        <li><Link to="/setting/button-values">Set Button Values</Link></li>
        <li><Link to="/setting/change-password">Change Password</Link></li>
      </ul>
    </PageCard>
  );
}
