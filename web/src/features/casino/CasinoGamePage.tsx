import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { assetUrl } from '../../api/global-setting';
import { useGlobalSetting } from '../../hooks/useGlobalSetting';
import { useSession } from '../../lib/session';
import { allowedFrameOrigins, frameableUrl } from './frame-policy';

/**
 * casino/mac88/game: full screen, a small header (home link to casino/mac88, logo, user name)
 * and the game in a frame. The address comes from the `url` query parameter and is framed only
 * when its origin is on the allow-list; anything else shows an error, never a frame.
 */
export function CasinoGamePage() {
  const { t } = useTranslation('casino');
  const [params] = useSearchParams();
  const user = useSession();
  const { data: setting, isPending } = useGlobalSetting();
  const url = params.get('url');
  const src = frameableUrl(url, allowedFrameOrigins(setting));
  const logo = assetUrl(setting?.logo);
  const title = setting?.site_title || 'Backlay';

  return (
    <div className="game-screen" data-testid="casino-game-page">
      <header className="game-screen-header">
        <Link to="/casino/mac88" className="game-home" data-testid="game-home-link">
          ⌂ <span>{t('game.home')}</span>
        </Link>
        <span className="brand">
          {logo ? <img src={logo} alt="" className="brand-logo" /> : null}
          <span className="brand-text">{title}</span>
        </span>
        <span className="user-name" data-testid="game-user-name">{user?.user_name}</span>
      </header>
      {src ? (
        <iframe className="game-frame" src={src} title={t('game.frameTitle')} allow="autoplay; fullscreen" referrerPolicy="no-referrer" />
      ) : isPending && !setting ? null : (
        <div className="game-error" role="alert" data-testid="game-error">
          <p>{url ? t('game.notAllowed') : t('game.noGame')}</p>
          <Link to="/casino/mac88" className="btn btn-primary">
            {t('game.back')}
          </Link>
        </div>
      )}
    </div>
  );
}
