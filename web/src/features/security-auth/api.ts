import { apiGet, apiPost, dataOr, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type SecuritySetup = Schemas['SecuritySetup'];
/** `user/security/status`: 1 when log-in asks for a code. */
export type SecurityStatus = Schemas['SecurityStatus'];

/** Whether security auth is on, or null when the session ended under the call. */
export async function getSecurityStatus(): Promise<boolean | null> {
  const data = dataOr(await apiGet<SecurityStatus>('user/security/status'), null);
  return data === null ? null : Number(data.enabled) === 1;
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
