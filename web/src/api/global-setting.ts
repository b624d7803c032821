// Site settings (`globalSetting/getGlobalSetting`: theme, logo, title, site message, payment
// gateway), asked without a token: the app reads them (hooks/useGlobalSetting.ts) and the
// console's settings screen reads them again after a change, so the one call, its cache key and
// the logo's address live here rather than in either.
import { apiGet, dataOr } from './client';
import type { Schemas } from './contract';

/** Until the first answer the app holds what localStorage kept, where an older server wrote some fields as text. */
type AlsoText<T, K extends keyof T> = Omit<T, K> & { [F in K]: T[F] | string };

/** Partial: a stored copy may lack fields, and a call the session ended under leaves nothing. */
export type GlobalSetting = Partial<AlsoText<Schemas['GlobalSetting'], 'payment_gateway' | 'is_show_apk' | 'casino_frame_origins'>>;

export const GLOBAL_SETTING_KEY = ['globalSetting'] as const;

export async function getGlobalSetting(): Promise<GlobalSetting> {
  return dataOr(await apiGet<GlobalSetting>('globalSetting/getGlobalSetting'), null) ?? {};
}

/** A logo or favicon value as an address: absolute and rooted values as they are, bare names under upload/image. */
export function assetUrl(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^(https?:|data:|\/)/.test(v)) return v;
  return `/upload/image/${v}`;
}
