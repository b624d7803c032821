import { useTranslation } from 'react-i18next';

/** How a finished match ended, across the top of its page: the server's result text, or that it has ended. */
export function ResultBanner({ result }: { result: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="result-banner" data-testid="result-banner" role="status">
      <span className="result-label">{t('score.result')}</span>
      <span className="result-text">{result ?? t('score.ended')}</span>
    </div>
  );
}
