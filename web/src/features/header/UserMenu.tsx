import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { GlobalSetting } from '../../api/global-setting';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { usePageState } from '../../hooks/usePageState';
import type { UserInfo } from '../../lib/session';
import { LOCAL_KEYS } from '../../lib/storage';
import { userMenuItems, type MenuAction } from './menu';

export function UserMenu({
  user,
  setting,
  showBalance,
  showExposure,
  onToggleBalance,
  onToggleExposure,
  onAction,
  onSignOut,
}: {
  user: UserInfo;
  setting: GlobalSetting | null | undefined;
  showBalance: boolean;
  showExposure: boolean;
  onToggleBalance: (shown: boolean) => void;
  onToggleExposure: (shown: boolean) => void;
  onAction: (action: MenuAction) => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation('header');
  // The menu belongs to the page it opened on: Back closes it.
  const [openState, setOpenState] = usePageState<true>();
  const open = openState === true;
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpenState(null);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, setOpenState]);

  const items = userMenuItems(user, setting, localStorage.getItem(LOCAL_KEYS.token));
  const close = () => setOpenState(null);

  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-menu-toggle"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpenState(open ? null : true)}
        data-testid="user-menu-toggle"
      >
        <span className="user-name" data-testid="user-name">{user.user_name}</span>
        <span aria-hidden="true" className="caret">▾</span>
      </button>
      {open && (
        <ul className="user-menu-list" role="menu" data-testid="user-menu">
          {items.map((item) => (
            <li key={item.testId} role="none">
              {item.to ? (
                <Link role="menuitem" to={item.to} onClick={close} data-testid={item.testId}>
                  {item.label}
                </Link>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  data-testid={item.testId}
                  onClick={() => {
                    close();
                    onAction(item.action!);
                  }}
                >
                  {item.label}
                </button>
              )}
            </li>
          ))}
          <li role="none" className="menu-toggle-row">
            <label>
              <input
                type="checkbox"
                checked={showBalance}
                onChange={(e) => onToggleBalance(e.target.checked)}
                data-testid="toggle-balance"
              />
              {t('menu.balance')}
            </label>
          </li>
          <li role="none" className="menu-toggle-row">
            <label>
              <input
                type="checkbox"
                checked={showExposure}
                onChange={(e) => onToggleExposure(e.target.checked)}
                data-testid="toggle-exposure"
              />
              {t('menu.exposure')}
            </label>
          </li>
          <li role="none" className="menu-language">
            <LanguageSwitch inMenu />
          </li>
          <li role="none" className="menu-signout">
            <button
              type="button"
              role="menuitem"
              data-testid="logout"
              onClick={() => {
                close();
                onSignOut();
              }}
            >
              {t('menu.signOut')}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
