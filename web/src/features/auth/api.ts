import { apiGet, apiPost } from '../../api/client';

/** What `user/login` answers when no second factor is needed; kept as `userinfo`. */
export interface SessionUser {
  token: string;
  user_id: number;
  user_name: string;
  /** 1 means the user must change the password before anything else. */
  is_change_password: number;
  /** -1 or missing means no parent (no payment menu). */
  parent_id: number | null;
  role: string;
}

/** With security auth on, login asks for a one-time code instead. */
export interface OtpChallenge {
  otp_required: true;
  otp_token: string;
}

export interface Balance {
  total_balance: number;
  /** Zero or below: minus the exposure. */
  liability: number;
  available: number;
}

export async function login(user_name: string, password: string): Promise<SessionUser | OtpChallenge> {
  return (await apiPost<SessionUser | OtpChallenge>('user/login', { user_name, password })).data;
}

export async function logout(user: SessionUser): Promise<void> {
  await apiPost<null>('user/logout', { user_id: user.user_id, token: user.token });
}

export async function getUserBalance(): Promise<Balance> {
  return (await apiGet<Balance>('user/getUserBalance')).data;
}
