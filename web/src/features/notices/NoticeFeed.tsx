// Keeps notices coming in a tab that has no live stream of its own: while no page stream is
// open (the match page's, the lists', a casino table's each carry the bettor's notices), it
// opens `stream?notices=1`, and closes it as soon as one is (api/notice-feed.ts says why).
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { API_BASE } from '../../api/client';
import { browserEventSource, getStreamTicket, LiveStream } from '../../api/live-stream';
import { NOTICES_QUERY_KEY, onCarriers, publishNotice } from '../../api/notice-feed';
import { useSession } from '../../lib/session';

export function noticesStreamUrl(ticket: string): string {
  return `${API_BASE}/stream?notices=1&ticket=${encodeURIComponent(ticket)}`;
}

/**
 * How long no page stream must be open before the feed opens its own: a page opening its
 * stream just after the app's first render (a casino table once its game loads), or a
 * navigation from one streaming page to another, does not open and close one in between.
 */
export const OWN_STREAM_AFTER_MS = 2_000;

export function NoticeFeed() {
  const user = useSession();
  const client = useQueryClient();
  const [carriers, setCarriers] = useState(0);
  useEffect(() => onCarriers(setCarriers), []);
  const needed = Boolean(user) && carriers === 0;

  useEffect(() => {
    if (!needed) return undefined;
    const stream: LiveStream = new LiveStream({
      getTicket: getStreamTicket,
      openSource: browserEventSource(),
      url: noticesStreamUrl,
      events: { notice: publishNotice },
      // While the stream is down, the list is read instead (new ones are toasted from it).
      poll: () => client.invalidateQueries({ queryKey: NOTICES_QUERY_KEY }),
      pollMs: 10_000,
      carriesNotices: false,
    });
    const timer = setTimeout(() => stream.start(), OWN_STREAM_AFTER_MS);
    return () => {
      clearTimeout(timer);
      stream.stop();
    };
  }, [needed, client]);
  return null;
}
