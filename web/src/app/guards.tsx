import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LOCAL_KEYS } from '../lib/storage';
import { CHANGE_PASSWORD_PATH, isConsoleUser, landingPath, mustChangePassword, useSession } from '../lib/session';

/**
 * Spec §2: without a logged-in session (login flag plus stored user data) go to /login; a
 * user who must change the password is held on /setting/change-password.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useSession();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace />;
  if (mustChangePassword(user) && location.pathname !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  }
  return <>{children}</>;
}

/** The login and sign-up pages are for visitors: a logged-in user goes to the root path. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const user = useSession();
  // A log-in waiting for its security code stays on the login page (the header sends it there).
  if (user && !localStorage.getItem(LOCAL_KEYS.otpVerify)) return <Navigate to={mustChangePassword(user) ? CHANGE_PASSWORD_PATH : landingPath(user)} replace />;
  return <>{children}</>;
}

/**
 * The console is for admins and agents: a client is sent to the betting app before the console's
 * code is fetched (it sits inside this guard, lazily loaded). Goes inside RequireAuth.
 */
export function ConsoleOnly({ children }: { children: ReactNode }) {
  const user = useSession();
  if (!isConsoleUser(user)) return <Navigate to="/" replace />;
  return <>{children}</>;
}
