import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { ButtonValuesForm } from './ButtonValuesForm';

export function ButtonValuesModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('settings');
  return (
    <Modal title={t('buttons.title')} onClose={onClose} testId="button-values-modal">
      <ButtonValuesForm onSaved={onClose} />
    </Modal>
  );
}
