// The bettor's notices in this tab: the list the bell shows (refetched every NOTICES_REFRESH_MS
// and whenever a stream delivers one), and a toast for each new one, once, however it arrived
// (a stream's `notice` event, or a refetch while no stream was live).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { getNotices, NOTICES_QUERY_KEY, onNotice, type Notice, type NoticesPage } from '../../api/notice-feed';
import { i18n } from '../../i18n';
import { noticeWords } from './notice-words';

/** The list is refetched this often even with no stream open (a safety net, not the way in). */
export const NOTICES_REFRESH_MS = 30_000;
/**
 * A notice's toast stays 5 s: it is read, not glanced at like the app's 800 ms confirmations
 * (spec §9), and it may come while the bettor looks elsewhere.
 */
export const NOTICE_TOAST_MS = 5_000;

/** The newest notice toasted in this tab, per user: older ones were there before it opened. */
const toasted = { userId: 0, upTo: -1 };

/** A notice as its toast says it, in the app's language: its kind, then what happened. */
export function noticeToastText(notice: Notice): string {
  return `${i18n.t(`notices:kind.${notice.kind}`)} · ${noticeWords(notice)}`;
}

/** A toast's colour by the notice's kind; the rest are 'info'. */
const TOAST_TYPE: Partial<Record<Notice['kind'], 'success' | 'warning'>> = { settled: 'success', matched: 'success', new_device: 'warning' };

/** Shows one notice as a toast. */
function toastNotice(notice: Notice): void {
  toast(noticeToastText(notice), {
    type: TOAST_TYPE[notice.kind] ?? 'info',
    autoClose: NOTICE_TOAST_MS,
    toastId: `notice-${notice.id}`,
  });
}

/**
 * Toasts (with `show`) each notice newer than the last toasted, oldest first; the first list
 * read in the tab only sets the mark.
 */
export function toastNew(userId: number, notices: readonly Notice[], fromList: boolean, show: (notice: Notice) => void = toastNotice): void {
  if (toasted.userId !== userId) {
    toasted.userId = userId;
    toasted.upTo = -1;
  }
  const newest = notices.reduce((max, n) => Math.max(max, n.id), 0);
  if (toasted.upTo < 0 && fromList) {
    // The first list of this tab: what it holds happened before; nothing to toast.
    toasted.upTo = newest;
    return;
  }
  const fresh = notices.filter((n) => n.id > toasted.upTo).sort((a, b) => a.id - b.id);
  for (const notice of fresh) show(notice);
  toasted.upTo = Math.max(toasted.upTo, newest);
}

/** The bell's list and unread count; toasts what is new. `userId` 0: nobody logged in. */
export function useNotices(userId: number) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: [...NOTICES_QUERY_KEY, userId],
    queryFn: async (): Promise<NoticesPage | null> => {
      const page = await getNotices();
      if (page) toastNew(userId, page.rows, true);
      return page;
    },
    enabled: userId > 0,
    refetchInterval: NOTICES_REFRESH_MS,
    retry: false,
  });
  useEffect(() => {
    if (userId <= 0) return undefined;
    return onNotice((notice) => {
      toastNew(userId, [notice], false);
      void client.invalidateQueries({ queryKey: NOTICES_QUERY_KEY });
    });
  }, [client, userId]);
  return query;
}
