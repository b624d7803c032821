import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RulesTabs } from './RulesTabs';

/** The rules page in its own layout (no header or sidebar). */
export function RulesPage() {
  const { t } = useTranslation('rules');
  return (
    <div className="rules-page" data-testid="rules-page">
      <header className="rules-page-header">
        <Link to="/" className="brand-text">
          {t('page.home')}
        </Link>
        <h1>{t('page.title')}</h1>
      </header>
      <RulesTabs />
    </div>
  );
}
