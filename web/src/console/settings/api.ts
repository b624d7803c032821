// Site settings (admin only): admin/settings takes any getGlobalSetting key and checks each;
// images go up as raw bytes to admin/upload/image and are used by naming them in a setting.
import { apiPost, apiPostFile, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type UploadedImage = Schemas['UploadedImageItem'];

/** Only the keys given change; numbers for the 0/1 flags. */
export function saveSettings(changes: Record<string, string | number>): Promise<Answer<string | null>> {
  return apiPost<string | null>('admin/settings', changes);
}

export function uploadImage(file: File, name: string): Promise<Answer<UploadedImage>> {
  return apiPostFile<UploadedImage>(`admin/upload/image?name=${encodeURIComponent(name)}`, file);
}
