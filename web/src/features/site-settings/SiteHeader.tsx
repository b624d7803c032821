import { useEffect, useState } from 'react';
import { getGlobalSetting } from './api';

/** The site's title from the global settings; placeholder until the real header is built. */
export function SiteHeader() {
  const [title, setTitle] = useState<string | null>(null);

  useEffect(() => {
    let current = true; // ignore an answer that arrives after unmount
    getGlobalSetting()
      .then((setting) => {
        if (!current) return;
        setTitle(setting.site_title);
        document.title = setting.site_title;
      })
      // The page works without the settings; the login form still shows.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);

  return (
    <header className="site-header">
      <h1 data-testid="site-title">{title ?? '\u00a0'}</h1>
    </header>
  );
}
