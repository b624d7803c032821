// Site settings (api/global-setting.ts), kept in localStorage `globalData` so the theme is right
// before the first answer.
import { useQuery } from '@tanstack/react-query';
import { getGlobalSetting, GLOBAL_SETTING_KEY, type GlobalSetting } from '../api/global-setting';
import { LOCAL_KEYS, readJson, writeJson } from '../lib/storage';

export function storedGlobalSetting(): GlobalSetting | null {
  return readJson<GlobalSetting>(localStorage, LOCAL_KEYS.globalData);
}

async function fetchGlobalSetting(): Promise<GlobalSetting> {
  const setting = await getGlobalSetting();
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
