// Site settings (admin only): admin/settings answers every setting with its value (GET) and
// takes any of them, each checked (POST); images go up as raw bytes to admin/upload/image and
// are used by naming them in a setting. The safer-gambling defaults have their own call,
// admin/saferDefaults (both read and written together).
import { apiGet, apiPost, apiPostFile, dataOr, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type SiteSettings = Schemas['SiteSettings'];
export type StakeButton = Schemas['StakeButton'];
export type UploadedImage = Schemas['UploadedImageItem'];
export type SaferDefaults = Schemas['SaferDefaultsData'];
/**
 * The safer-gambling defaults as sent: amounts as typed, since the server reads an amount from
 * its text as readily as from a number (so a rupee never passes through a float); null clears one.
 */
export type SaferDefaultsInput = { [K in keyof SaferDefaults]: string | null };

export const SITE_SETTINGS_KEY = ['console', 'settings'] as const;
export const SAFER_DEFAULTS_KEY = ['console', 'saferDefaults'] as const;

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

/** The daily loss limit new client accounts start with and the tree's maximum stake (null: none). */
export async function getSaferDefaults(): Promise<SaferDefaults | null> {
  return dataOr(await apiGet<SaferDefaults>('admin/saferDefaults'), null);
}

/** Both defaults at once (the call takes both); answers them as saved. */
export function saveSaferDefaults(input: SaferDefaultsInput): Promise<Answer<SaferDefaults>> {
  return apiPost<SaferDefaults>('admin/saferDefaults', input);
}
