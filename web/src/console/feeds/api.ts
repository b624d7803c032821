// The upstream feeds (admin only): admin/feed/status answers every feed the server runs (Betfair
// Exchange Stream mirrors, live or recorded) and whether a live stream can be added here; add,
// pause and remove each answer the feed as it then stands, and are audited on the server.
import { apiGet, apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type FeedStatus = Schemas['FeedStatusData'];
export type FeedItem = Schemas['FeedItem'];
export type FeedMarket = Schemas['FeedMarketItem'];
export type NewFeed = Schemas['AddFeedRequest'];

export const FEEDS_KEY = ['console', 'feeds'] as const;

export function getFeedStatus(): Promise<Answer<FeedStatus>> {
  return apiGet<FeedStatus>('admin/feed/status');
}

/** A live stream (`betfair-stream:HOST:PORT`) and the markets it mirrors, comma-separated. */
export function addFeed(feed: NewFeed): Promise<Answer<FeedItem>> {
  return apiPost<FeedItem>('admin/feed/add', feed);
}

/** Pausing suspends the feed's markets; resuming brings them back to the upstream's state. */
export function pauseFeed(id: number, paused: boolean): Promise<Answer<FeedItem>> {
  return apiPost<FeedItem>('admin/feed/pause', { id, paused } satisfies Schemas['PauseFeedRequest']);
}

/** For good: the feed's markets stay suspended, to be settled or voided by hand. */
export function removeFeed(id: number): Promise<Answer<FeedItem>> {
  return apiPost<FeedItem>('admin/feed/remove', { id } satisfies Schemas['RemoveFeedRequest']);
}
