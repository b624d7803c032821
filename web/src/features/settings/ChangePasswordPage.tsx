import { useNavigate } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { landingPath, mustChangePassword, useSession } from '../../lib/session';
import { ChangePasswordForm } from './ChangePasswordForm';

export function ChangePasswordPage() {
  const user = useSession();
  const navigate = useNavigate();
  const forced = mustChangePassword(user);
  return (
    <PageCard title="Change Password" testId="change-password-page">
      {forced && (
        <p className="notice" data-testid="forced-change-notice">
          Your password was set by your agent. Choose your own password to go on.
        </p>
      )}
      <ChangePasswordForm onDone={() => void navigate(forced ? landingPath(user) : '/setting/change-password', { replace: true })} />
    </PageCard>
  );
}
