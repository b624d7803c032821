import { TOKEN_STORAGE_KEY } from '../../api/client';
import type { SessionUser } from './api';

// The storage keys (and the spelling "logedIn") are the product's own; other
// code and the browser tests read them, so they stay as they are.
const USER_INFO_KEY = 'userinfo';
const LOGGED_IN_KEY = 'logedIn';

/** The stored session, or null unless the flag, the user record and the token are all there. */
export function readSession(): SessionUser | null {
  const info = localStorage.getItem(USER_INFO_KEY);
  if (localStorage.getItem(LOGGED_IN_KEY) !== 'true' || !info || !localStorage.getItem(TOKEN_STORAGE_KEY)) {
    return null;
  }
  try {
    return JSON.parse(info) as SessionUser;
  } catch {
    return null;
  }
}

export function saveSession(user: SessionUser): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, user.token);
  localStorage.setItem(USER_INFO_KEY, JSON.stringify(user));
  localStorage.setItem(LOGGED_IN_KEY, 'true');
}

export function clearSession(): void {
  for (const key of [TOKEN_STORAGE_KEY, USER_INFO_KEY, LOGGED_IN_KEY, 'parent_id']) {
    localStorage.removeItem(key);
  }
  sessionStorage.removeItem('exposureBalance');
}
