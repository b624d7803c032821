import { apiPost, type Answer } from '../../api/client';

export interface SecuritySetup {
  secret: string;
  otpauth_uri: string;
}

export function setUpSecurity(): Promise<Answer<SecuritySetup>> {
  return apiPost<SecuritySetup>('user/security/setup', {});
}

export function enableSecurity(otp: string): Promise<Answer<null>> {
  return apiPost<null>('user/security/enable', { otp });
}

export function disableSecurity(otp: string, password: string): Promise<Answer<null>> {
  return apiPost<null>('user/security/disable', { otp, password });
}
