// The reality check (docs/api.md "Reality check and the session"), mounted once for the whole
// app: while a bettor is logged in it reads `GET user/sessionSummary` and, every
// `reality_check_minutes` from the log-in's start (reality-check.ts), shows how long they have
// been logged in and what this session's settled play came to, to continue or log out. With a
// session limit it logs them out at `ends_at`, when the server stops taking the session's token.
// One timer for the next reminder and one for the end: nothing is polled.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '../../components/Modal';
import { i18n } from '../../i18n';
import { formatMoney } from '../../lib/format';
import { isConsoleUser, isLoggedIn, mustChangePassword, noteFarewell, useSession, type UserInfo } from '../../lib/session';
import { signOut } from '../../lib/sign-out';
import { getSessionSummary, SESSION_SUMMARY_KEY } from './api';
import { minutesBetween, nextReminderAtMs, timerDelayMs } from './reality-check';
import { durationText } from './words';

/** How far the server's clock may be ahead of this one for a session ended near its limit to count as ended by it. */
const CLOCK_SKEW_MS = 60_000;

/** For bettors only (the console's users set no limits), once the password no longer has to be changed. */
export function RealityCheck() {
  const user = useSession();
  if (!user || isConsoleUser(user) || mustChangePassword(user)) return null;
  return <SessionWatch key={user.user_id} user={user} />;
}

function SessionWatch({ user }: { user: UserInfo }) {
  const queryClient = useQueryClient();
  // Read once per log-in; again when a reminder opens (so its net is fresh) or the interval changes.
  const summary = useQuery({ queryKey: SESSION_SUMMARY_KEY, queryFn: getSessionSummary, staleTime: Infinity, retry: false });
  const data = summary.data;
  const startedMs = data ? Date.parse(data.started_at) : Number.NaN;
  const intervalMinutes = data?.reality_check_minutes ?? 0;
  const endsMs = data?.ends_at ? Date.parse(data.ends_at) : Number.NaN;
  /** The reminder showing: when it came. */
  const [shownAtMs, setShownAtMs] = useState<number | null>(null);

  useEffect(() => {
    if (shownAtMs !== null || !Number.isFinite(startedMs) || !(intervalMinutes > 0)) return undefined;
    const now = Date.now();
    const timer = setTimeout(() => {
      setShownAtMs(Date.now());
      void queryClient.refetchQueries({ queryKey: SESSION_SUMMARY_KEY });
    }, timerDelayMs(nextReminderAtMs(startedMs, intervalMinutes, now), now));
    return () => clearTimeout(timer);
  }, [shownAtMs, startedMs, intervalMinutes, queryClient]);

  useEffect(() => {
    if (!Number.isFinite(endsMs)) return undefined;
    const farewell = () => i18n.t('safety:reality.sessionEnded');
    const timer = setTimeout(() => void signOut(user, farewell()), timerDelayMs(endsMs, Date.now()));
    return () => {
      clearTimeout(timer);
      // A server whose clock runs ahead refuses the token (401) before this timer fires, and the
      // API client ends the session: the bettor is told why all the same.
      if (!isLoggedIn() && Date.now() >= endsMs - CLOCK_SKEW_MS) noteFarewell(farewell());
    };
  }, [endsMs, user]);

  if (shownAtMs === null || !data) return null;
  return (
    <Reminder
      minutes={minutesBetween(startedMs, shownAtMs)}
      net={data.net}
      onContinue={() => setShownAtMs(null)}
      onLogOut={() => void signOut(user)}
    />
  );
}

function Reminder({ minutes, net, onContinue, onLogOut }: { minutes: number; net: number; onContinue: () => void; onLogOut: () => void }) {
  const { t } = useTranslation('safety');
  return (
    <Modal title={t('reality.reminderTitle')} onClose={onContinue} size="sm" closesByAccident={false} testId="reality-check">
      <p data-testid="reality-duration">{t('reality.loggedInFor', { duration: durationText(minutes) })}</p>
      <p>
        {t('reality.net')}{' '}
        <b className={net > 0 ? 'pnl win' : net < 0 ? 'pnl lose' : undefined} data-testid="reality-net">
          {formatMoney(net)}
        </b>
      </p>
      <p className="small">
        <Link to="/safer-gambling" onClick={onContinue}>
          {t('reality.limitsLink')}
        </Link>
      </p>
      <div className="modal-actions wrap">
        <button type="button" className="btn" onClick={onLogOut} data-testid="reality-logout">
          {t('reality.logOut')}
        </button>
        <button type="button" className="btn btn-primary" onClick={onContinue} data-testid="reality-continue">
          {t('reality.continue')}
        </button>
      </div>
    </Modal>
  );
}
