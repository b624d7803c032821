import type { ReactNode } from 'react';
import { assetUrl } from '../../api/global-setting';
import { AppDownloadLink } from '../../components/AppDownloadLink';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useGlobalSetting } from '../../hooks/useGlobalSetting';

/** The login and sign-up pages' frame: the site's logo or title over a card. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { data: setting } = useGlobalSetting();
  const logo = assetUrl(setting?.logo);
  const siteTitle = setting?.site_title || 'Backlay';
  return (
    <main className="auth-page">
      <div className="auth-card">
        <LanguageSwitch />
        <div className="auth-brand">
          {logo ? <img src={logo} alt={siteTitle} className="auth-logo" /> : null}
          <span className="brand-text" data-testid="site-title">
            {siteTitle}
          </span>
        </div>
        <h1 className="auth-title">
          {title} <span aria-hidden="true">➜</span>
        </h1>
        {children}
        <AppDownloadLink className="btn btn-block auth-app-link" />
      </div>
    </main>
  );
}
