import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { landingPath, mustChangePassword, useSession } from '../../lib/session';
import { ChangePasswordForm } from './ChangePasswordForm';

export function ChangePasswordPage() {
  const { t } = useTranslation('settings');
  const user = useSession();
  const navigate = useNavigate();
  const forced = mustChangePassword(user);
  return (
    <PageCard title={t('password.title')} testId="change-password-page">
      {forced && (
        <p className="notice" data-testid="forced-change-notice">
          {t('password.forced')}
        </p>
      )}
      <ChangePasswordForm onDone={() => void navigate(forced ? landingPath(user) : '/setting/change-password', { replace: true })} />
    </PageCard>
  );
}
