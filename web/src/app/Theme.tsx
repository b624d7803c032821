import { useEffect } from 'react';
import { assetUrl, type GlobalSetting } from '../api/global-setting';
import { useGlobalSetting } from '../hooks/useGlobalSetting';

/** The global setting's colour fields as CSS variables (see app.css for their use). */
export const THEME_VARIABLES: [keyof GlobalSetting, string][] = [
  ['bg_primary_color', '--bg-primary'],
  ['bg_secondry_color', '--bg-secondary'],
  ['text_primary_color', '--text-primary'],
  ['text_secondry_color', '--text-secondary'],
  ['other_color', '--other-color'],
];

const COLOUR = /^#[0-9a-fA-F]{3,8}$|^(rgb|hsl)a?\([\d\s.,%]+\)$/;

export function applyTheme(setting: GlobalSetting | null | undefined, root: HTMLElement = document.documentElement): void {
  if (!setting) return;
  for (const [field, variable] of THEME_VARIABLES) {
    const value = setting[field];
    if (typeof value === 'string' && COLOUR.test(value.trim())) root.style.setProperty(variable, value.trim());
  }
  if (setting.site_title) document.title = setting.site_title;
  const favicon = assetUrl(setting.favicon);
  if (favicon) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = favicon;
  }
}

/** Theme, site title and favicon from getGlobalSetting, on every page including the login page. */
export function Theme() {
  const { data } = useGlobalSetting();
  useEffect(() => applyTheme(data), [data]);
  return null;
}
