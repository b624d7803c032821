import type { GlobalSetting } from '../../api/global-setting';

/**
 * The origins the casino game page may frame. The server is to publish them as the global
 * setting `casino_frame_origins` (a list, or a comma-separated text); until it does the list
 * is empty and no game address is framed.
 */
export const DEFAULT_FRAME_ORIGINS: readonly string[] = [];

export function allowedFrameOrigins(setting: GlobalSetting | null | undefined): string[] {
  const raw = setting?.casino_frame_origins;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [...DEFAULT_FRAME_ORIGINS];
  return list.map((o) => o.trim()).filter(Boolean).flatMap((o) => {
    try {
      return [new URL(o).origin];
    } catch {
      return [];
    }
  });
}

/** The address to frame, or null: only http(s) addresses whose origin is on the allow-list. */
export function frameableUrl(url: string | null, allowed: string[]): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return allowed.includes(parsed.origin) ? parsed.href : null;
}
