import { useTranslation } from 'react-i18next';
import { appDownloadUrl, useGlobalSetting } from '../hooks/useGlobalSetting';

/** "Download the app", where the operator shows it (is_show_apk 1 and an apk_url set): the log-in and sign-up pages and the sidebar. */
export function AppDownloadLink({ className }: { className: string }) {
  const { t } = useTranslation();
  const { data: setting } = useGlobalSetting();
  const url = appDownloadUrl(setting);
  if (!url) return null;
  return (
    <a className={className} href={url} rel="noopener noreferrer" data-testid="app-download">
      <span aria-hidden="true">⬇</span> {t('downloadApp')}
    </a>
  );
}
