import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { assetUrl } from '../../api/global-setting';
import { useGlobalSetting } from '../../hooks/useGlobalSetting';
import { useBalance } from '../../hooks/useBalance';
import { usePageState } from '../../hooks/usePageState';
import { formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useRules } from '../../lib/rules-topic';
import { signOut } from '../../lib/sign-out';
import { LOCAL_KEYS } from '../../lib/storage';
import { showPaymentItems, type MenuAction } from './menu';
import { MyMarketModal } from './MyMarketModal';
import { SearchBox } from './SearchBox';
import { UserMenu } from './UserMenu';
import { initialVisibility, saveVisibility } from './visibility';

/**
 * What the header opens that other areas own; the app passes them in (features do not import
 * each other). The rules are the app's own pop-up (lib/rules-topic), opened on the page's topic.
 */
export interface HeaderModals {
  buttonValues: (close: () => void) => ReactNode;
  changePassword: (close: () => void) => ReactNode;
}

/** `bell`: the notices' bell (features/notices), composed by the app like the modals. */
export function Header({ modals, bell }: { modals: HeaderModals; bell?: ReactNode }) {
  const { t } = useTranslation('header');
  const user = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: setting } = useGlobalSetting();
  // The rules pop-up is the app's: it opens on the page's own rules (lib/rules-topic).
  const rules = useRules();
  const balance = useBalance(Boolean(user) && location.pathname !== '/login');
  // A pop-up belongs to the page it opened on: Back closes it.
  const [modal, setModal] = usePageState<MenuAction | 'myMarket'>();
  const [showBalance, setShowBalance] = useState(() => initialVisibility('balance'));
  const [showExposure, setShowExposure] = useState(() => initialVisibility('exposure'));

  // Spec §2: a log-in still waiting for its security code belongs on the login page.
  useEffect(() => {
    if (localStorage.getItem(LOCAL_KEYS.otpVerify)) void navigate('/login', { replace: true });
  }, [navigate, location.pathname]);

  if (!user) return null;
  const logo = assetUrl(setting?.logo);
  const title = setting?.site_title || 'Backlay';
  const close = () => setModal(null);
  const b = balance.data;

  return (
    <header className="site-header" data-testid="site-header">
      <div className="header-bar">
        <Link to="/" className="brand" aria-label={t('homeLink', { title })} data-testid="home-link">
          {logo ? <img src={logo} alt="" className="brand-logo" /> : null}
          <span className="brand-text" data-testid="site-title">{title}</span>
        </Link>
        <SearchBox />
        <div className="header-right">
          <button type="button" className="header-link rules-link" onClick={() => rules.open()} data-testid="rules-link">
            {t('rules')}
          </button>
          {showPaymentItems(user, setting) && (
            <Link to="/setting/d-w" className="header-link wallet-link" data-testid="deposit-withdraw-link">
              <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className="wallet-icon">
                <rect x="2" y="6" width="20" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
                <path d="M16 13h3" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                <path d="M5 6l10-3 1 3" fill="none" stroke="currentColor" strokeWidth="2" />
              </svg>
              <span>{t('depositWithdraw')}</span>
            </Link>
          )}
          {bell}
          <div className="balance-block">
            {showBalance && (
              <div className="figure">
                {t('balance')} <b data-testid="balance">{b ? formatMoney(b.total_balance) : '…'}</b>
              </div>
            )}
            {showExposure && (
              <button type="button" className="figure exposure" onClick={() => setModal('myMarket')} data-testid="exposure-button">
                {t('exposure')} <b data-testid="exposure">{b ? formatMoney(Math.abs(b.liability)) : '…'}</b>
              </button>
            )}
            {/* Available is balance − exposure: beside either figure it gives the other away, so it
                shows only while both are shown (a bettor hiding one hides it too). */}
            {showBalance && showExposure && (
              <div className="figure" title={t('availableTitle')}>
                {t('available')} <b data-testid="available">{b ? formatMoney(b.available) : '…'}</b>
              </div>
            )}
          </div>
          <UserMenu
            user={user}
            setting={setting}
            showBalance={showBalance}
            showExposure={showExposure}
            onToggleBalance={(shown) => {
              saveVisibility('balance', shown);
              setShowBalance(shown);
            }}
            onToggleExposure={(shown) => {
              saveVisibility('exposure', shown);
              setShowExposure(shown);
            }}
            onAction={(action) => (action === 'rules' ? rules.open() : setModal(action))}
            onSignOut={() => void signOut(user)}
          />
        </div>
      </div>
      {setting?.site_message ? (
        <div className="site-message" data-testid="site-message">
          <span className="site-message-text">{setting.site_message}</span>
        </div>
      ) : null}
      {modal === 'myMarket' && <MyMarketModal onClose={close} />}
      {modal === 'buttonValues' && modals.buttonValues(close)}
      {modal === 'changePassword' && modals.changePassword(close)}
    </header>
  );
}
