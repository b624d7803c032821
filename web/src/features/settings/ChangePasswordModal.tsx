import { Modal } from '../../components/Modal';
import { ChangePasswordForm } from './ChangePasswordForm';

export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Change Password" onClose={onClose} size="sm" testId="change-password-modal">
      <ChangePasswordForm onDone={onClose} />
    </Modal>
  );
}
