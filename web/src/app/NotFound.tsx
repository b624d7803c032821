import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="page-card not-found" data-testid="not-found">
      <div className="page-card-body">
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.text')}</p>
        <Link to="/" className="btn btn-primary" data-testid="not-found-home">
          {t('notFound.home')}
        </Link>
      </div>
    </div>
  );
}
