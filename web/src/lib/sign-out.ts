import { apiPost } from '../api/client';
import { clearSession, type UserInfo } from './session';

/**
 * Spec §4: the server is told first, then the local session is cleared (the login page opens,
 * saying `farewell` when given: see clearSession).
 */
export async function signOut(user: UserInfo, farewell?: string): Promise<void> {
  try {
    await apiPost('user/logout', { user_id: user.user_id, token: user.token });
  } catch {
    // The session ends here whatever the server says; its token expires there anyway.
  }
  clearSession(farewell);
}
