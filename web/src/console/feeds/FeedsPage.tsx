// `#/console/feeds` (admin): the upstream feeds this server mirrors (Betfair Exchange Stream,
// live or recorded), read again every 2 s: how far each has got, what it refused, and which
// upstream market is which market here. A feed is paused (its markets suspended), resumed or
// removed for good; a live stream is added when the server holds a feed's stream access.
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { dataOr, errorMessage, type Answer } from '../../api/client';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { formatIstDateTime } from '../../lib/format';
import { toastSuccess } from '../../lib/toast';
import { EmptyRow } from '../TableParts';
import { addFeed, FEEDS_KEY, getFeedStatus, pauseFeed, removeFeed, type FeedItem, type FeedMarket, type FeedStatus, type NewFeed } from './api';
import './feeds.css';

/** How often the status is read again while the page is open. */
const REFRESH_MS = 2_000;

/** The states a feed can be paused in, and those it can still be steered in (finished, removed and failed are for good). */
const RUNNING = new Set(['running', 'connecting']);
const STEERABLE = new Set([...RUNNING, 'paused']);

const ADD_FIELDS = ['source', 'markets'] as const;

export function FeedsPage() {
  const query = useQuery({
    queryKey: FEEDS_KEY,
    queryFn: async () => dataOr(await getFeedStatus(), null),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const action = useFeedAction();
  const [removing, setRemoving] = useState<FeedItem | null>(null);
  const status = query.data;
  return (
    <PageCard title="Feeds" testId="feeds-page">
      <p className="muted small">
        The upstream exchanges this server mirrors. Pausing a feed suspends its markets and pulls the house&apos;s orders; resuming
        brings them back to the upstream&apos;s state.
      </p>
      {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
      {/* A failed re-read keeps the last status on screen, under the reason. */}
      {status && query.error && <ErrorMessage>Could not refresh the feeds: {errorMessage(query.error)}</ErrorMessage>}
      <QueryState isPending={query.isPending} error={status ? null : query.error}>
        {status && (
          <>
            <FeedsTable
              feeds={status.feeds}
              busy={action.busy}
              onPause={(feed, paused) => void action.run(() => pauseFeed(feed.id, paused))}
              onRemove={setRemoving}
            />
            <AddFeedForm cannotAdd={status.cannot_add} />
          </>
        )}
      </QueryState>
      {removing && <RemoveFeedDialog feed={removing} onClose={() => setRemoving(null)} />}
    </PageCard>
  );
}

/** The answer's feed in place of the one on screen, so it shows before the status is read again. */
function showFeed(queryClient: QueryClient, feed: FeedItem) {
  queryClient.setQueryData<FeedStatus | null>(FEEDS_KEY, (now) =>
    now ? { ...now, feeds: now.feeds.map((f) => (f.id === feed.id ? feed : f)) } : now,
  );
}

/** Runs one action on a feed: its message as a toast, the answer shown, the status read again; a refusal as text. */
function useFeedAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (call: () => Promise<Answer<FeedItem>>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    let done = false;
    try {
      const answer = await call();
      if (answer.status) {
        toastSuccess(answer.message);
        showFeed(queryClient, answer.data);
        done = true;
      }
    } catch (failure) {
      setError(errorMessage(failure));
    }
    // A refusal (already paused, already ended) means the screen was behind: read it either way.
    await queryClient.invalidateQueries({ queryKey: FEEDS_KEY });
    setBusy(false);
    return done;
  };
  return { busy, error, run };
}

function FeedsTable({
  feeds,
  busy,
  onPause,
  onRemove,
}: {
  feeds: FeedItem[];
  busy: boolean;
  onPause: (feed: FeedItem, paused: boolean) => void;
  onRemove: (feed: FeedItem) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="data-table stack-on-phone feeds-table" data-testid="feeds-table">
        <thead>
          <tr>
            <th scope="col">Feed</th>
            <th scope="col">Source</th>
            <th scope="col">State</th>
            <th scope="col">Messages</th>
            <th scope="col">Refused</th>
            <th scope="col">Lag</th>
            <th scope="col">Last message</th>
            <th scope="col">Last error</th>
            <th scope="col">Markets</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {feeds.length === 0 ? (
            <EmptyRow colSpan={10}>This server runs no feeds.</EmptyRow>
          ) : (
            feeds.map((feed) => (
              <tr key={feed.id} data-testid={`feed-${feed.id}`}>
                <td data-label="Feed">{feed.id}</td>
                <td data-label="Source"><code className="feed-source">{breakable(feed.source)}</code></td>
                <td data-label="State">
                  {/* Wrapped: a phone's card lays each cell's child out as a grid item, which a bare chip would fill. */}
                  <span>
                    <span className={`status-chip feed-state-${feed.state}`} data-testid="feed-state">{feed.state}</span>
                  </span>
                </td>
                <td data-label="Messages" className="num">{feed.messages}</td>
                <td data-label="Refused" className="feed-text" data-testid="feed-refused">
                  <div>
                    {feed.refused}
                    {feed.first_refusal && <div className="small muted">First: {feed.first_refusal}</div>}
                  </div>
                </td>
                <td data-label="Lag" className="num nowrap" data-testid="feed-lag">{feed.lag_ms === null ? '—' : `${feed.lag_ms} ms`}</td>
                <td data-label="Last message" data-testid="feed-last-message">{feed.last_pt === null ? '—' : formatIstDateTime(feed.last_pt)}</td>
                <td data-label="Last error" className="feed-text" data-testid="feed-last-error">{feed.last_error ?? '—'}</td>
                <td data-label="Markets" className="feed-markets-cell">
                  <FeedMarkets markets={feed.markets} />
                </td>
                <td data-label="Actions">
                  {STEERABLE.has(feed.state) ? (
                    <span className="row-actions">
                      {RUNNING.has(feed.state) ? (
                        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => onPause(feed, true)} data-testid={`feed-pause-${feed.id}`}>Pause</button>
                      ) : (
                        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => onPause(feed, false)} data-testid={`feed-resume-${feed.id}`}>Resume</button>
                      )}
                      <button type="button" className="btn btn-sm btn-danger" disabled={busy} onClick={() => onRemove(feed)} data-testid={`feed-remove-${feed.id}`}>Remove</button>
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A source with places to break after its `:`, `/`, `,` and `.`, so a long path wraps where it reads well. */
function breakable(source: string) {
  // Split on a captured separator: the separators are the odd pieces.
  return source.split(/([:/,.])/).map((part, index) => (
    <Fragment key={index}>
      {part}
      {index % 2 === 1 && <wbr />}
    </Fragment>
  ));
}

/** Each upstream market beside the market it is here (its match's page in the catalogue) and its runners. */
function FeedMarkets({ markets }: { markets: FeedMarket[] }) {
  if (markets.length === 0) return <span className="muted">None yet.</span>;
  return (
    <ul className="feed-markets">
      {markets.map((market) => (
        <li key={market.upstream_market_id} data-testid={`feed-market-${market.upstream_market_id}`}>
          <code>{market.upstream_market_id}</code> →{' '}
          <Link to={`/console/markets/${market.match_id}`}>Market {market.market_id}</Link>{' '}
          <span className={`status-chip feed-upstream-${market.status.toLowerCase()}`}>{market.status}</span>
          {market.runners.length > 0 && <div className="small muted">{market.runners.map((runner) => runner.name).join(', ')}</div>}
        </li>
      ))}
    </ul>
  );
}

/** Removing is for good, so it is asked first. */
function RemoveFeedDialog({ feed, onClose }: { feed: FeedItem; onClose: () => void }) {
  const action = useFeedAction();
  return (
    <Modal title={`Remove feed ${feed.id}?`} onClose={onClose} size="sm" testId="feed-remove-dialog">
      <div className="stack-form">
        <p>
          <code>{feed.source}</code> stops for good.{' '}
          {feed.markets.length > 0 &&
            `Its ${feed.markets.length === 1 ? 'market stays' : `${feed.markets.length} markets stay`} suspended, to be settled or voided by hand; a feed added again later takes them up.`}
        </p>
        {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={action.busy}
            onClick={() => void action.run(() => removeFeed(feed.id)).then((done) => done && onClose())}
            data-testid="feed-remove-confirm"
          >
            Remove
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** Shown disabled, with the server's reason, where a live stream cannot be added. */
function AddFeedForm({ cannotAdd }: { cannotAdd: string | null }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<NewFeed>({ defaultValues: { source: '', markets: '' } });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await addFeed({ source: values.source.trim(), markets: values.markets.trim() });
      if (!answer.status) return;
      toastSuccess(answer.message);
      reset();
    } catch (error) {
      setFormError(applyServerErrors(error, ADD_FIELDS, setError));
    }
    await queryClient.invalidateQueries({ queryKey: FEEDS_KEY });
  });
  return (
    <form className="feeds-add" onSubmit={(event) => void submit(event)} noValidate aria-label="Add a live stream" data-testid="feed-add-form">
      <h2>Add a live stream</h2>
      {cannotAdd && <p className="feeds-cannot-add" data-testid="feed-cannot-add">{cannotAdd}</p>}
      <fieldset disabled={cannotAdd !== null}>
        <div className="form-grid">
          <Field label="Stream (betfair-stream:HOST:PORT)" error={errors.source?.message}>
            <input placeholder="betfair-stream:stream-api.betfair.com:443" autoComplete="off" spellCheck={false} {...register('source')} data-testid="feed-add-source" />
          </Field>
          <Field label="Markets: market ids, event type ids, countries or market types, with commas between" error={errors.markets?.message}>
            <input placeholder="1.234567, 7, GB, WIN" autoComplete="off" spellCheck={false} {...register('markets')} data-testid="feed-add-markets" />
          </Field>
        </div>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting} data-testid="feed-add-submit">Add stream</button>
      </fieldset>
    </form>
  );
}
