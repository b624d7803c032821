import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '../../components/Modal';
import { mustChangePassword, useSession } from '../../lib/session';
import { LOCAL_KEYS } from '../../lib/storage';

export const WELCOME_POPUP_DELAY_MS = 100;

/**
 * Spec §4: with is_change_password 0, the welcome popup shows once, 100 ms after log-in,
 * while `openWelcomePopup` is pending; closing it clears the flag. The flag is cleared as the
 * popup shows, too: a bettor who reloads (or opens another tab) without closing it has seen it
 * for this log-in, and "once" must not become "on every load until closed".
 */
export function WelcomePopup() {
  const { t } = useTranslation('auth');
  const user = useSession();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!user || mustChangePassword(user) || localStorage.getItem(LOCAL_KEYS.openWelcomePopup) !== 'true') return;
    const timer = window.setTimeout(() => {
      localStorage.removeItem(LOCAL_KEYS.openWelcomePopup);
      setOpen(true);
    }, WELCOME_POPUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [user]);

  if (!open) return null;
  const close = () => {
    localStorage.removeItem(LOCAL_KEYS.openWelcomePopup);
    setOpen(false);
  };
  return (
    <Modal title={t('welcome.title')} onClose={close} testId="welcome-popup">
      <div className="welcome-popup">
        <PhishingImage />
        <p>{t('welcome.text')}</p>
        <div className="modal-actions">
          <Link to="/security-auth/" className="btn btn-primary" onClick={close}>
            {t('welcome.enable')}
          </Link>
          <button type="button" className="btn" onClick={close}>
            {t('welcome.close')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** The popup's picture: a shield over a hook, drawn inline so it needs no image server. */
function PhishingImage() {
  const { t } = useTranslation('auth');
  return (
    <svg className="welcome-image" viewBox="0 0 200 120" role="img" aria-label={t('welcome.image')}>
      <rect width="200" height="120" rx="10" fill="var(--bg-secondary)" />
      <path d="M100 14 L138 28 V58 C138 82 122 98 100 106 C78 98 62 82 62 58 V28 Z" fill="var(--text-secondary)" />
      <path d="M84 60 L96 72 L118 46" stroke="var(--bg-primary)" strokeWidth="8" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M160 20 V70 C160 84 140 84 140 70" stroke="#fff" strokeWidth="5" fill="none" strokeLinecap="round" />
      <circle cx="160" cy="18" r="5" fill="#fff" />
      <line x1="148" y1="30" x2="176" y2="86" stroke="#e5484d" strokeWidth="6" strokeLinecap="round" />
    </svg>
  );
}
