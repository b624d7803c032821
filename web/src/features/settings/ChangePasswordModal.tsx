import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { ChangePasswordForm } from './ChangePasswordForm';

export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('settings');
  return (
    <Modal title={t('password.title')} onClose={onClose} size="sm" testId="change-password-modal">
      <ChangePasswordForm onDone={onClose} />
    </Modal>
  );
}
