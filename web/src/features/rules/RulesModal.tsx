import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import type { RulesTopic } from '../../lib/rules-topic';
import { RulesTabs } from './RulesTabs';
import { rulesTabFor } from './topic';

/** The rules over the page, opened on the tab of what they were opened about (a market, a sport). */
export function RulesModal({ topic, onClose }: { topic?: RulesTopic | null; onClose: () => void }) {
  const { t } = useTranslation('rules');
  return (
    <Modal title={t('modalTitle')} onClose={onClose} size="lg" testId="rules-modal">
      <RulesTabs initialTab={rulesTabFor(topic)} market={topic?.marketName !== undefined && topic.commissionBp !== undefined ? { name: topic.marketName, commissionBp: topic.commissionBp } : undefined} />
    </Modal>
  );
}
