import { Modal } from '../../components/Modal';
import { ButtonValuesForm } from './ButtonValuesForm';

export function ButtonValuesModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Set Button Value" onClose={onClose} testId="button-values-modal">
      <ButtonValuesForm onSaved={onClose} />
    </Modal>
  );
}
