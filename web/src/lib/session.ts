// The logged-in session: what is stored (spec §3), who is logged in (spec §4), and the one
// place that ends a session. A tiny external store, so the API client (outside React) and
// every component read the same truth.
import { useSyncExternalStore } from 'react';
import type { Schemas } from '../api/contract';
import { LOCAL_KEYS, SESSION_KEYS, readJson } from './storage';

type LoginData = Schemas['LoginData'];

/**
 * What `user/login`, `user/signup` and `user/verifyOtp` answer; kept as `userinfo`, where a copy
 * an older server wrote may lack the parent, role and security fields.
 */
export type UserInfo = Omit<LoginData, 'parent_id' | 'role' | 'security_enabled'> &
  Partial<Pick<LoginData, 'parent_id' | 'role' | 'security_enabled'>>;

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: UserInfo | null = read();

/** The stored session, or null unless the login flag, the user record and the token are all there. */
function read(): UserInfo | null {
  if (localStorage.getItem(LOCAL_KEYS.loggedIn) !== 'true' || !localStorage.getItem(LOCAL_KEYS.token)) return null;
  const info = readJson<UserInfo>(localStorage, LOCAL_KEYS.userInfo);
  return info && typeof info === 'object' ? info : null;
}

function emit(): void {
  snapshot = read();
  for (const listener of listeners) listener();
}

export function currentUser(): UserInfo | null {
  return snapshot;
}

export function isLoggedIn(): boolean {
  return snapshot !== null;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The logged-in user, re-rendering on log-in and log-out. */
export function useSession(): UserInfo | null {
  return useSyncExternalStore(subscribeSession, currentUser, currentUser);
}

/** Re-reads storage (tests and other tabs change it behind our back). */
export function refreshSession(): void {
  emit();
}

export function hasParent(user: UserInfo | null): boolean {
  const parent = user?.parent_id;
  return parent !== undefined && parent !== null && Number(parent) !== -1;
}

/** Admins and agents run the operator's console (console/nav's consoleRole reads the role through this). */
export function isConsoleUser(user: UserInfo | null): user is UserInfo & { role: 'admin' | 'agent' } {
  return user?.role === 'admin' || user?.role === 'agent';
}

/** Where a user lands after log-in (and after the forced password change): the console or the betting app. */
export function landingPath(user: UserInfo | null): string {
  return isConsoleUser(user) ? CONSOLE_PATH : '/';
}

export function mustChangePassword(user: UserInfo | null = snapshot): boolean {
  return Number(user?.is_change_password) === 1;
}

/** Stores a fresh log-in. The welcome popup becomes pending unless a password change comes first. */
export function saveLogin(user: UserInfo): void {
  localStorage.setItem(LOCAL_KEYS.token, user.token);
  localStorage.setItem(LOCAL_KEYS.userInfo, JSON.stringify(user));
  localStorage.setItem(LOCAL_KEYS.loggedIn, 'true');
  localStorage.setItem(LOCAL_KEYS.userId, String(user.user_id));
  localStorage.setItem(LOCAL_KEYS.parentId, String(user.parent_id ?? -1));
  localStorage.removeItem(LOCAL_KEYS.otpVerify);
  localStorage.setItem(LOCAL_KEYS.openWelcomePopup, 'true');
  sessionStorage.removeItem(SESSION_KEYS.farewell);
  emit();
}

/** After a successful password change: the user may now use the site. */
export function markPasswordChanged(): void {
  const user = read();
  if (!user) return;
  localStorage.setItem(LOCAL_KEYS.userInfo, JSON.stringify({ ...user, is_change_password: 0 }));
  emit();
}

/** Security auth was turned on or off (or the server says so): the stored record follows. */
export function markSecurityEnabled(enabled: boolean): void {
  const user = read();
  const value = enabled ? 1 : 0;
  if (!user || user.security_enabled === value) return;
  localStorage.setItem(LOCAL_KEYS.userInfo, JSON.stringify({ ...user, security_enabled: value }));
  emit();
}

/** The server said 428: the stored record is stale, the user must change the password. */
export function markMustChangePassword(): void {
  const user = read();
  if (!user || mustChangePassword(user)) return;
  localStorage.setItem(LOCAL_KEYS.userInfo, JSON.stringify({ ...user, is_change_password: 1 }));
  emit();
}

/**
 * Ends the session locally: exactly the keys spec §4 lists, then the login page. `farewell`: why,
 * when the app ended it for a reason the bettor should read there (a time-out they took, their
 * session limit reached); the login page shows it until the next log-in.
 */
export function clearSession(farewell?: string): void {
  for (const key of [LOCAL_KEYS.userInfo, LOCAL_KEYS.token, LOCAL_KEYS.loggedIn, LOCAL_KEYS.parentId]) {
    localStorage.removeItem(key);
  }
  sessionStorage.removeItem(SESSION_KEYS.exposureBalance);
  if (farewell) sessionStorage.setItem(SESSION_KEYS.farewell, farewell);
  emit();
  goTo('/login');
}

/** Says why the session ended after it has (see {@link clearSession}); nothing while one is live. */
export function noteFarewell(farewell: string): void {
  if (read()) return;
  sessionStorage.setItem(SESSION_KEYS.farewell, farewell);
  emit();
}

function currentFarewell(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.farewell);
}

/** Why the last session ended, when the app said so (see {@link clearSession}), else null. */
export function useFarewell(): string | null {
  return useSyncExternalStore(subscribeSession, currentFarewell, currentFarewell);
}

/** Spec §4: session storage is cleared at start when not logged in. */
export function clearSessionStorageIfLoggedOut(): void {
  if (!read()) sessionStorage.clear();
}

/** Hash navigation from outside React (the API client); HashRouter follows `hashchange`. */
export function goTo(path: string): void {
  if (window.location.hash !== `#${path}`) window.location.hash = path;
}

export const CHANGE_PASSWORD_PATH = '/setting/change-password';
export const CONSOLE_PATH = '/console';
