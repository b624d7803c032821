import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { UserInfo } from '../../lib/session';

/** With security auth on, log-in asks for a one-time code instead. */
export type OtpChallenge = Schemas['OtpRequired'];

export type LoginAnswer = Schemas['LoginAnswer'];

export function isOtpChallenge(answer: LoginAnswer): answer is OtpChallenge {
  return 'otp_required' in answer && answer.otp_required === true;
}

export async function login(user_name: string, password: string): Promise<LoginAnswer | null> {
  const answer = await apiPost<LoginAnswer>('user/login', { user_name, password });
  return answer.status ? answer.data : null;
}

export async function verifyOtp(otp_token: string, otp: string): Promise<UserInfo | null> {
  const answer = await apiPost<UserInfo>('user/verifyOtp', { otp_token, otp });
  return answer.status ? answer.data : null;
}

export interface SignupInput {
  user_name: string;
  password: string;
  confirm_password: string;
  dial_code: string;
  mobile: string;
}

export async function signup(input: SignupInput): Promise<Answer<LoginAnswer>> {
  return apiPost<LoginAnswer>('user/signup', input);
}

