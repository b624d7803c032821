import { PageCard } from '../../components/PageCard';
import { ButtonValuesForm } from './ButtonValuesForm';

export function ButtonValuesPage() {
  return (
    <PageCard title="Set Button Value" testId="button-values-page">
      <ButtonValuesForm />
    </PageCard>
  );
}
