import { apiGet } from '../../api/client';

/** `globalSetting/getGlobalSetting`: the theme and texts of the site; needs no token. */
export interface GlobalSetting {
  site_title: string;
  site_message: string;
  logo: string;
  favicon: string;
  payment_gateway: number;
  is_show_apk: number;
  bg_primary_color: string;
  bg_secondry_color: string;
  text_primary_color: string;
  text_secondry_color: string;
  other_color: string;
}

export async function getGlobalSetting(): Promise<GlobalSetting> {
  return (await apiGet<GlobalSetting>('globalSetting/getGlobalSetting')).data;
}
