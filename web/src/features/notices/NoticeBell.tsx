// The header's bell: the bettor's unread notices counted, and the recent ones listed when it
// is opened (opening marks them read). A log-in from a new device links to the log-in history,
// where the bettor can end every other session.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { markNoticesRead, NOTICES_QUERY_KEY } from '../../api/notice-feed';
import { formatIstDateTime } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useNotices } from './useNotices';
import { noticeWords } from './notice-words';

export function NoticeBell() {
  const { t } = useTranslation('notices');
  const user = useSession();
  const userId = user?.user_id ?? 0;
  const client = useQueryClient();
  const { data } = useNotices(userId);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) return null;
  const rows = data?.rows ?? [];
  const unread = data?.unread ?? 0;
  const lastRead = data?.last_read_id ?? 0;

  const toggle = () => {
    const opening = !open;
    setOpen(opening);
    const newest = rows[0]?.id;
    if (opening && newest !== undefined && unread > 0) {
      void markNoticesRead(newest).then(() => client.invalidateQueries({ queryKey: NOTICES_QUERY_KEY }));
    }
  };

  return (
    <div className="notice-bell" ref={ref}>
      <button
        type="button"
        className="header-link notice-bell-button"
        onClick={toggle}
        aria-label={unread > 0 ? t('bell.labelUnread', { unread }) : t('bell.label')}
        aria-expanded={open}
        data-testid="notice-bell"
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
        {unread > 0 && (
          <span className="notice-count" data-testid="notice-count">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div className="notice-list" role="dialog" aria-label={t('bell.label')} data-testid="notice-list">
          <div className="notice-list-title">{t('bell.title')}</div>
          {rows.length === 0 ? (
            <p className="notice-empty">{t('bell.empty')}</p>
          ) : (
            <ul>
              {rows.map((notice) => (
                <li key={notice.id} className={notice.id > lastRead ? 'notice-item unread' : 'notice-item'} data-testid="notice-item">
                  <span className={`notice-kind kind-${notice.kind}`}>{t(`kind.${notice.kind}`)}</span>
                  <span className="notice-text">{noticeWords(notice)}</span>
                  {notice.kind === 'new_device' && (
                    <Link className="notice-link" to="/login-history" onClick={() => setOpen(false)}>
                      {t('say.notYou')}
                    </Link>
                  )}
                  <time className="notice-time" dateTime={notice.at}>
                    {formatIstDateTime(notice.at)}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
