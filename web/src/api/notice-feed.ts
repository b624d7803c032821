// The bettor's notices (crates/api/src/notices.rs, docs/api.md "Notices"): a bet of theirs
// matched later, lapsed, cancelled by the exchange, settled or voided. Every live stream sends
// them as `notice` events (live-stream.ts hands each to `publishNotice`), and
// `GET user/notices` lists them after a reload.
//
// One feed per tab: whichever stream is open delivers them, and only while none is open does
// the app open `stream?notices=1` of its own (features/notices/NoticeFeed.tsx): a browser
// allows few connections per site over HTTP/1.1, and each open stream holds one.
import { apiGet, apiPost, dataOr } from './client';
import type { Schemas } from './contract';

export type Notice = Schemas['NoticeItem'];
export type NoticesPage = Schemas['NoticesPage'];

export const NOTICES_QUERY_KEY = ['user', 'notices'] as const;
/** Notices the bell's list shows. */
export const NOTICES_SHOWN = 20;

export async function getNotices(limit: number = NOTICES_SHOWN): Promise<NoticesPage | null> {
  return dataOr(await apiGet<NoticesPage>(`user/notices?page=1&limit=${limit}`), null);
}

/** Marks every notice up to `upToId` seen; answers the newest seen now. */
export async function markNoticesRead(upToId: number): Promise<number | null> {
  const answer = await apiPost<Schemas['MarkReadAnswer']>('user/notices/read', { up_to_id: upToId });
  return dataOr(answer, null)?.last_read_id ?? null;
}

type Listener = (notice: Notice) => void;
const listeners = new Set<Listener>();
/** Streams open now that carry notices (every one but the feed's own counts). */
let carriers = 0;
const carrierListeners = new Set<(count: number) => void>();

/** Listens to every notice a stream delivers; answers the unsubscribe. */
export function onNotice(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A stream's `notice` event: its data, given to every listener (not JSON: dropped). */
export function publishNotice(data: string): void {
  let notice: Notice;
  try {
    notice = JSON.parse(data) as Notice;
  } catch {
    return;
  }
  if (typeof notice?.id !== 'number') return;
  for (const listener of listeners) listener(notice);
}

/** A page's stream started (+1) or stopped (-1): notices come on it meanwhile. */
export function countCarrier(delta: 1 | -1): void {
  carriers = Math.max(0, carriers + delta);
  for (const listener of carrierListeners) listener(carriers);
}

/** Follows how many page streams carry notices now; answers the unsubscribe. */
export function onCarriers(listener: (count: number) => void): () => void {
  carrierListeners.add(listener);
  listener(carriers);
  return () => carrierListeners.delete(listener);
}
