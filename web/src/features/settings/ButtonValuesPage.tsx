import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard';
import { ButtonValuesForm } from './ButtonValuesForm';

export function ButtonValuesPage() {
  const { t } = useTranslation('settings');
  return (
    <PageCard title={t('buttons.title')} testId="button-values-page">
      <ButtonValuesForm />
    </PageCard>
  );
}
