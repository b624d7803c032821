import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES, setLanguage } from '../i18n';

/**
 * English / हिन्दी, each named in itself, the current one marked: in the user menu (`inMenu`,
 * as menu radio items) and on the log-in and sign-up pages, before anyone has logged in.
 */
export function LanguageSwitch({ inMenu = false, onChosen }: { inMenu?: boolean; onChosen?: () => void }) {
  const { t, i18n } = useTranslation();
  // Read through the hook's i18n so the mark follows a switch made anywhere.
  const current = i18n.language === 'hi' ? 'hi' : currentLanguage();
  return (
    <div className={`language-switch${inMenu ? ' in-menu' : ''}`} role="group" aria-label={t('language')} data-testid="language-switch">
      {inMenu && <span className="language-switch-label">{t('language')}</span>}
      {LANGUAGES.map((language) => {
        const chosen = language.code === current;
        return (
          <button
            key={language.code}
            type="button"
            lang={language.code}
            className={`language-choice${chosen ? ' active' : ''}`}
            {...(inMenu ? { role: 'menuitemradio', 'aria-checked': chosen } : { 'aria-pressed': chosen })}
            onClick={() => {
              if (!chosen) setLanguage(language.code);
              onChosen?.();
            }}
            data-testid={`language-${language.code}`}
          >
            {chosen && <span aria-hidden="true">✓ </span>}
            {language.label}
          </button>
        );
      })}
    </div>
  );
}
