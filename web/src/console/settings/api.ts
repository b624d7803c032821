// Site settings (admin only): admin/settings answers every setting with its value (GET) and
// takes any of them, each checked (POST); images go up as raw bytes to admin/upload/image and
// are used by naming them in a setting.
import { apiGet, apiPost, apiPostFile, dataOr, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type SiteSettings = Schemas['SiteSettings'];
export type StakeButton = Schemas['StakeButton'];
export type UploadedImage = Schemas['UploadedImageItem'];

export const SITE_SETTINGS_KEY = ['console', 'settings'] as const;

export async function getSettings(): Promise<SiteSettings | null> {
  return dataOr(await apiGet<SiteSettings>('admin/settings'), null);
}

/** Only the keys given change: numbers for the 0/1 flags and counts, lists for the stake buttons. */
export function saveSettings(changes: Record<string, string | number | StakeButton[]>): Promise<Answer<string | null>> {
  return apiPost<string | null>('admin/settings', changes);
}

export function uploadImage(file: File, name: string): Promise<Answer<UploadedImage>> {
  return apiPostFile<UploadedImage>(`admin/upload/image?name=${encodeURIComponent(name)}`, file);
}
