import { Modal } from '../../components/Modal';
import { RulesTabs } from './RulesTabs';

export function RulesModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Rules" onClose={onClose} size="lg" testId="rules-modal">
      <RulesTabs />
    </Modal>
  );
}
