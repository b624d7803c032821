// Site settings (theme, logo, title, site message, payment gateway): no token needed, kept in
// localStorage `globalData` so the theme is right before the first answer.
import { useQuery } from '@tanstack/react-query';
import { apiGet, dataOr } from '../api/client';
import type { Schemas } from '../api/contract';
import { LOCAL_KEYS, readJson, writeJson } from '../lib/storage';

/** Until the first answer the app holds what localStorage kept, where an older server wrote some fields as text. */
type AlsoText<T, K extends keyof T> = Omit<T, K> & { [F in K]: T[F] | string };

/** Partial: a stored copy may lack fields, and a call the session ended under leaves nothing. */
export type GlobalSetting = Partial<AlsoText<Schemas['GlobalSetting'], 'payment_gateway' | 'is_show_apk' | 'casino_frame_origins'>>;

export const GLOBAL_SETTING_KEY = ['globalSetting'] as const;

export function storedGlobalSetting(): GlobalSetting | null {
  return readJson<GlobalSetting>(localStorage, LOCAL_KEYS.globalData);
}

async function fetchGlobalSetting(): Promise<GlobalSetting> {
  const setting = dataOr(await apiGet<GlobalSetting>('globalSetting/getGlobalSetting'), null) ?? {};
  writeJson(localStorage, LOCAL_KEYS.globalData, setting);
  return setting;
}

export function useGlobalSetting() {
  return useQuery({
    queryKey: GLOBAL_SETTING_KEY,
    queryFn: fetchGlobalSetting,
    staleTime: 5 * 60_000,
    placeholderData: () => storedGlobalSetting() ?? undefined,
  });
}

export function paymentGatewayOn(setting: GlobalSetting | undefined | null): boolean {
  return Number(setting?.payment_gateway) === 1;
}

/** Where "Download the app" leads, when the operator shows it: an https address only. */
export function appDownloadUrl(setting: GlobalSetting | undefined | null): string | null {
  const url = setting?.apk_url?.trim();
  return Number(setting?.is_show_apk) === 1 && url && /^https:\/\//i.test(url) ? url : null;
}

/** A logo or favicon value as an address: absolute and rooted values as they are, bare names under upload/image. */
export function assetUrl(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^(https?:|data:|\/)/.test(v)) return v;
  return `/upload/image/${v}`;
}
