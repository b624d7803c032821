import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import type { FeedItem, FeedStatus } from './api';

const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const live: FeedItem = {
  id: 0,
  source: 'betfair-stream:stream-api.betfair.com:443',
  state: 'running',
  messages: 1520,
  refused: 2,
  first_refusal: 'line 14: market 1.999 has no runners',
  last_error: 'market 1.888: no match for event 31',
  // 26/11/2026 14:30:05 at UTC+5:30.
  last_pt: Date.UTC(2026, 10, 26, 9, 0, 5),
  lag_ms: 250,
  markets: [
    {
      upstream_market_id: '1.234567',
      market_id: 41,
      match_id: 9,
      status: 'OPEN',
      runners: [
        { upstream_selection_id: 101, selection_id: 411, name: 'Arrow' },
        { upstream_selection_id: 102, selection_id: 412, name: 'Blaze' },
      ],
    },
  ],
};
const recording: FeedItem = { ...live, id: 1, source: 'betfair-file:/data/ascot.json', state: 'finished', refused: 0, first_refusal: null, last_error: null, lag_ms: null, markets: [] };

const feedsOf = (feeds: FeedItem[], cannot_add: string | null = null): FeedStatus => ({ feeds, cannot_add });

function server(status: FeedStatus | (() => FeedStatus), extra: Answers = {}): Call[] {
  return stubServer({
    ...EMPTY_CATALOGUE,
    'GET /api/admin/feed/status': () => ({ data: typeof status === 'function' ? status() : status }),
    ...extra,
  });
}

const posted = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === `/api/admin/feed/${path}`).map((c) => c.body);
const reads = (calls: Call[]) => calls.filter((c) => c.path === '/api/admin/feed/status').length;

async function openScreen() {
  storeSession(admin);
  renderApp('/console/feeds');
  return screen.findByTestId('feeds-table');
}

describe('the feeds screen', () => {
  it("shows each feed's state, figures and markets, and reads them again every 2 s", async () => {
    const calls = server(feedsOf([live, recording]));
    await openScreen();
    const row = screen.getByTestId('feed-0');
    expect(row).toHaveTextContent('betfair-stream:stream-api.betfair.com:443');
    expect(within(row).getByTestId('feed-state')).toHaveTextContent('running');
    expect(within(row).getByTestId('feed-lag')).toHaveTextContent('250 ms');
    expect(within(row).getByTestId('feed-last-message')).toHaveTextContent('26/11/2026 14:30:05');
    expect(within(row).getByTestId('feed-refused')).toHaveTextContent('2First: line 14: market 1.999 has no runners');
    expect(within(row).getByTestId('feed-last-error')).toHaveTextContent('market 1.888: no match for event 31');
    const market = within(row).getByTestId('feed-market-1.234567');
    expect(market).toHaveTextContent('1.234567 → Market 41 OPEN');
    expect(market).toHaveTextContent('Arrow, Blaze');
    expect(within(market).getByRole('link', { name: 'Market 41' })).toHaveAttribute('href', '#/console/markets/9');
    expect(within(row).getByTestId('feed-pause-0')).toBeInTheDocument();
    // A finished recording can no longer be steered.
    const ended = screen.getByTestId('feed-1');
    expect(within(ended).getByTestId('feed-state')).toHaveTextContent('finished');
    expect(within(ended).getByTestId('feed-lag')).toHaveTextContent('—');
    expect(within(ended).queryByRole('button')).not.toBeInTheDocument();
    await waitFor(() => expect(reads(calls)).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
  });

  it('pauses a running feed with one call and shows the answer', async () => {
    let state = 'running';
    const calls = server(() => feedsOf([{ ...live, state }]), {
      'POST /api/admin/feed/pause': () => {
        state = 'paused';
        return { message: 'Feed 0 paused.', data: { ...live, state: 'paused', lag_ms: null } };
      },
    });
    await openScreen();
    await userEvent.click(screen.getByTestId('feed-pause-0'));
    await waitFor(() => expect(posted(calls, 'pause')).toEqual([{ id: 0, paused: true }]));
    const row = screen.getByTestId('feed-0');
    expect(await within(row).findByText('paused')).toBeInTheDocument();
    expect(within(row).getByTestId('feed-resume-0')).toBeInTheDocument();
    expect(within(row).queryByTestId('feed-pause-0')).not.toBeInTheDocument();
  });

  it("shows a refusal in the page's alert area", async () => {
    server(feedsOf([{ ...live, state: 'paused' }]), {
      'POST /api/admin/feed/pause': { httpStatus: 409, message: 'Feed 0 is already running.' },
    });
    await openScreen();
    await userEvent.click(screen.getByTestId('feed-resume-0'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Feed 0 is already running.');
  });

  it('asks before removing a feed', async () => {
    const calls = server(feedsOf([live]), {
      'POST /api/admin/feed/remove': { message: 'Feed 0 removed.', data: { ...live, state: 'removed' } },
    });
    await openScreen();
    await userEvent.click(screen.getByTestId('feed-remove-0'));
    let dialog = await screen.findByTestId('feed-remove-dialog');
    expect(dialog).toHaveTextContent('Its market stays suspended');
    expect(posted(calls, 'remove')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('feed-remove-dialog')).not.toBeInTheDocument();
    expect(posted(calls, 'remove')).toEqual([]);
    await userEvent.click(screen.getByTestId('feed-remove-0'));
    dialog = await screen.findByTestId('feed-remove-dialog');
    await userEvent.click(within(dialog).getByTestId('feed-remove-confirm'));
    await waitFor(() => expect(posted(calls, 'remove')).toEqual([{ id: 0 }]));
    await waitFor(() => expect(screen.queryByTestId('feed-remove-dialog')).not.toBeInTheDocument());
  });

  it('shows the add form disabled, with the reason, where a stream cannot be added', async () => {
    const reason = 'This server runs no feeds: start it with a feed\'s settings to add live streams.';
    server(feedsOf([], reason));
    await openScreen();
    expect(screen.getByText('This server runs no feeds.')).toBeInTheDocument();
    const form = screen.getByTestId('feed-add-form');
    expect(within(form).getByTestId('feed-cannot-add')).toHaveTextContent(reason);
    expect(within(form).getByTestId('feed-add-source')).toBeDisabled();
    expect(within(form).getByTestId('feed-add-markets')).toBeDisabled();
    expect(within(form).getByTestId('feed-add-submit')).toBeDisabled();
  });

  it("adds a live stream and puts the server's refusal at its field", async () => {
    const message = 'Say which markets to mirror: market ids (1.234), event type ids (7), countries (GB) or market types (WIN).';
    const calls = server(feedsOf([]), {
      'POST /api/admin/feed/add': { httpStatus: 400, message, data: { errors: { markets: message } } },
    });
    await openScreen();
    const form = screen.getByTestId('feed-add-form');
    expect(within(form).queryByTestId('feed-cannot-add')).not.toBeInTheDocument();
    await userEvent.type(within(form).getByTestId('feed-add-source'), ' betfair-stream:stream-api.betfair.com:443 ');
    await userEvent.type(within(form).getByTestId('feed-add-markets'), ' , ');
    await userEvent.click(within(form).getByTestId('feed-add-submit'));
    const field = within(form).getByTestId('feed-add-markets').closest('label')!;
    expect(await within(field).findByText(message)).toBeInTheDocument();
    expect(posted(calls, 'add')).toEqual([{ source: 'betfair-stream:stream-api.betfair.com:443', markets: ',' }]);
  });
});
