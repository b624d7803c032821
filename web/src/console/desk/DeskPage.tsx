// `#/console/desk/<matchId>`: the trading desk for a match's bookmaker and fancy markets, run
// from the keyboard (desk-keys.ts holds every key's rule). A key's change shows at once and is
// posted at once; the server's answer confirms it or puts the row back with the refusal on it.
// The rows follow the match's live stream, the one the client app's match page reads.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { browserEventSource, getStreamTicket, type StreamState } from '../../api/live-stream';
import { MatchStream, streamUrl, type MarketBook } from '../../api/match-stream';
import { ApiError, dataOr, errorMessage } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { formatMoney } from '../../lib/format';
import { LiveMatchesTable } from '../LiveMatchesTable';
import { amountText } from '../money-input';
import { listLiveMatches, riskKeys } from '../risk/api';
import {
  deskKey,
  getDesk,
  setBookmakerRates,
  setFancyLines,
  setInPlay,
  setLimits,
  setSpread,
  setStatus,
  type DeskMarket,
  type DeskMatch,
} from './api';
import './desk.css';
import { applyCommand, INITIAL_DESK_KEYS, KEY_MAP, pressKey, without, type DeskCommand, type DeskKeysState, type DeskRow, type DeskSide } from './desk-keys';

/** The desk's routes: a match's desk, or where to pick one. */
export function DeskRoutes() {
  return (
    <Routes>
      <Route index element={<DeskIndex />} />
      <Route path=":matchId" element={<DeskPage />} />
    </Routes>
  );
}

/** `#/console/desk`: the matches with a bookmaker or fancy market still running, each opening its desk. */
function DeskIndex() {
  const query = useQuery({ queryKey: riskKeys.live, queryFn: async () => dataOr(await listLiveMatches(), null) });
  const matches = (query.data ?? [])
    .map((m) => ({ ...m, markets: m.markets.filter((market) => market.market_type === 'bookmaker' || market.market_type === 'fancy') }))
    .filter((m) => m.markets.length > 0);
  return (
    <PageCard title="Trading desk" testId="desk-index">
      <QueryState isPending={query.isPending} error={query.error}>
        {matches.length === 0 ? (
          <p className="empty-state" data-testid="desk-empty">
            No match has a bookmaker or fancy market running. Create one under <Link to="/console/markets">Markets</Link>.
          </p>
        ) : (
          <LiveMatchesTable matches={matches} linkOf={(m) => String(m.match_id)} testIdPrefix="desk" />
        )}
      </QueryState>
    </PageCard>
  );
}

/** A market the keys work on, from what the server and the stream say. */
function deskRow(market: DeskMarket): DeskRow | null {
  if (market.type === 'fancy') {
    return {
      kind: 'fancy',
      marketId: market.market_id,
      status: market.status,
      spread: market.spread,
      lineNo: market.line_no,
      rateNo: market.rate_no,
      lineYes: market.line_yes,
      rateYes: market.rate_yes,
    };
  }
  if (market.type === 'bookmaker') {
    return {
      kind: 'bookmaker',
      marketId: market.market_id,
      status: market.status,
      spread: market.spread,
      runners: market.runners.map((r) => ({ selectionId: r.selection_id, back: r.back[0]?.price ?? null, lay: r.lay[0]?.price ?? null })),
    };
  }
  return null;
}

/** A stream book folded into the desk's market: the set-up the desk alone reads is kept. */
function withBook(desk: DeskMatch, book: MarketBook): DeskMatch {
  const index = desk.markets.findIndex((m) => m.market_id === book.market_id);
  const markets = [...desk.markets];
  if (index < 0) return desk;
  markets[index] = { ...markets[index], ...book };
  return { ...desk, markets };
}

/** The desk's copy of a market with a change the server accepted. */
function withCommand(desk: DeskMatch, command: DeskCommand): DeskMatch {
  const markets = desk.markets.map((m) => {
    if (m.market_id !== command.marketId) return m;
    if (command.kind === 'status') return { ...m, status: command.status };
    if (command.kind === 'spread') return { ...m, spread: command.spread };
    if (command.kind === 'fancy') {
      return { ...m, line_no: command.lineNo, rate_no: command.rateNo, line_yes: command.lineYes, rate_yes: command.rateYes };
    }
    const side = (rate: number | null) => (rate === null ? [] : [{ price: rate, size: m.max_stake }]);
    return {
      ...m,
      runners: m.runners.map((r) => {
        const posted = command.runners.find((x) => x.selectionId === r.selection_id);
        return posted ? { ...r, back: side(posted.back), lay: side(posted.lay) } : r;
      }),
    };
  });
  return { ...desk, markets };
}

function send(command: DeskCommand) {
  switch (command.kind) {
    case 'status':
      return setStatus(command.marketId, command.status);
    case 'fancy':
      return setFancyLines(command.marketId, command);
    case 'bookmaker':
      return setBookmakerRates(command.marketId, command.runners);
    case 'spread':
      return setSpread(command.marketId, command.spread);
  }
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function DeskPage() {
  const matchId = Number(useParams().matchId);
  const queryClient = useQueryClient();
  const key = deskKey(matchId);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => dataOr(await getDesk(matchId), null),
    enabled: Number.isFinite(matchId) && matchId > 0,
  });
  const [connection, setConnection] = useState<StreamState>('connecting');
  const [keys, setKeys] = useState<DeskKeysState>(INITIAL_DESK_KEYS);
  // Changes sent and not answered yet, shown over the server's rows.
  const [pending, setPending] = useState<Record<number, DeskRow>>({});
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});

  useEffect(() => {
    if (!Number.isFinite(matchId) || matchId <= 0) return undefined;
    const stream = new MatchStream({
      matchId,
      getTicket: getStreamTicket,
      openSource: browserEventSource(),
      url: streamUrl,
      onSnapshot: (books) =>
        queryClient.setQueryData<DeskMatch | null>(deskKey(matchId), (old) => (old ? books.reduce(withBook, old) : old)),
      onMarket: (book) => queryClient.setQueryData<DeskMatch | null>(deskKey(matchId), (old) => (old ? withBook(old, book) : old)),
      onScore: (live) =>
        queryClient.setQueryData<DeskMatch | null>(deskKey(matchId), (old) => (old ? { ...old, match: { ...old.match, in_play: live.in_play } } : old)),
      poll: () => queryClient.refetchQueries({ queryKey: deskKey(matchId), exact: true }),
      onState: setConnection,
    });
    stream.start();
    return () => stream.stop();
  }, [matchId, queryClient]);

  const desk = query.data ?? null;
  const markets = (desk?.markets ?? []).filter((m) => m.type === 'bookmaker' || m.type === 'fancy');
  const rows = markets.map((m) => pending[m.market_id] ?? deskRow(m)).filter((r): r is DeskRow => r !== null);
  const selected = Math.min(keys.selected, Math.max(0, rows.length - 1));

  // The latest rows and keys for the keydown listener, which is added once.
  const latest = useRef({ rows, keys });
  latest.current = { rows, keys };

  useEffect(() => {
    const post = async (command: DeskCommand, row: DeskRow) => {
      const shown = applyCommand(row, command);
      setPending((p) => ({ ...p, [command.marketId]: shown }));
      setRowErrors((e) => without(e, command.marketId));
      try {
        await send(command);
        // Accepted as sent: show it until the stream's copy of the change arrives.
        queryClient.setQueryData<DeskMatch | null>(deskKey(matchId), (old) => (old ? withCommand(old, command) : old));
      } catch (error) {
        setRowErrors((e) => ({ ...e, [command.marketId]: errorMessage(error) }));
        await queryClient.refetchQueries({ queryKey: deskKey(matchId), exact: true });
      } finally {
        setPending((p) => without(p, command.marketId));
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const { rows: now, keys: state } = latest.current;
      const result = pressKey(state, event.key, now);
      if (!result.handled) return;
      event.preventDefault();
      setKeys(result.state);
      const row = now.find((r) => r.marketId === result.command?.marketId);
      if (result.command && row) void post(result.command, row);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [matchId, queryClient]);

  const selectedMarket = markets.find((m) => m.market_id === rows[selected]?.marketId) ?? null;

  return (
    <PageCard
      title={desk ? `Desk: ${desk.match.name}` : 'Trading desk'}
      testId="desk-page"
      actions={
        desk && (
          <span className="row-actions">
            <span className={`status-chip${connection === 'live' ? '' : ' pending'}`} data-testid="desk-connection">
              {connection === 'live' ? 'Live' : connection}
            </span>
            <InPlayToggle matchId={matchId} inPlay={desk.match.in_play} />
            <Link className="btn btn-sm" to={`/console/markets/${matchId}`}>Results…</Link>
          </span>
        )
      }
    >
      <QueryState isPending={query.isPending} error={query.error}>
        {rows.length === 0 ? (
          <p className="muted">This match has no bookmaker or fancy market yet. Create them under Markets.</p>
        ) : (
          <div className="desk">
            <table className="data-table desk-table" data-testid="desk-table">
              <thead>
                <tr>
                  <th scope="col">Market</th>
                  <th scope="col">Status</th>
                  <th scope="col">Rates / lines</th>
                  <th scope="col">Stakes</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => {
                  const market = markets.find((m) => m.market_id === row.marketId);
                  const isSelected = index === selected;
                  return (
                    <tr
                      key={row.marketId}
                      className={`desk-row${isSelected ? ' selected' : ''}`}
                      aria-selected={isSelected}
                      data-testid={`desk-row-${row.marketId}`}
                      onClick={() => setKeys((k) => ({ ...k, selected: index, entry: null }))}
                    >
                      <td>
                        <b>{market?.name}</b> <span className="muted small">{row.kind}</span>
                        {rowErrors[row.marketId] && (
                          <div className="field-error" role="alert" data-testid="desk-row-error">{rowErrors[row.marketId]}</div>
                        )}
                      </td>
                      <td>
                        <span className={`status-chip desk-status-${row.status}`} data-testid="desk-status">{row.status.replace('_', ' ')}</span>
                        {pending[row.marketId] && <span className="muted small"> sending…</span>}
                      </td>
                      <td data-testid="desk-rates">
                        {row.kind === 'fancy' ? (
                          <span>
                            NO <b data-testid="desk-line-no">{row.lineNo ?? '–'}</b>/{row.rateNo ?? '–'} · YES{' '}
                            <b data-testid="desk-line-yes">{row.lineYes ?? '–'}</b>/{row.rateYes ?? '–'}
                          </span>
                        ) : (
                          row.runners.map((r, i) => (
                            <span key={r.selectionId} className={`desk-runner${isSelected && i === keys.runner ? ' selected' : ''}`} data-testid="desk-runner">
                              {market?.runners[i]?.name}: <b>{r.back ?? '–'}</b>/<b>{r.lay ?? '–'}</b>{' '}
                            </span>
                          ))
                        )}
                        <span className="muted small" data-testid="desk-spread">
                          {' '}· spread {row.spread}
                        </span>
                        {isSelected && keys.side !== 'both' && (
                          <span className="status-chip pending" data-testid="desk-side">
                            {sideLabel(row.kind, keys.side)} alone
                          </span>
                        )}
                        {isSelected && keys.entry !== null && (
                          <span className="desk-entry" data-testid="desk-entry"> ⌨ {keys.entry} ⏎</span>
                        )}
                      </td>
                      <td>
                        {market && `${formatMoney(market.min_stake)} – ${formatMoney(market.max_stake)}`}
                        {market && market.bet_delay_s > 0 && <span className="muted small"> · delay {market.bet_delay_s}s</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {selectedMarket && <LimitsForm key={selectedMarket.market_id} market={selectedMarket} />}
            <KeyMap />
          </div>
        )}
      </QueryState>
    </PageCard>
  );
}

/** What `n` or `y` picked, as the desk calls it on this market. */
function sideLabel(kind: DeskRow['kind'], side: DeskSide): string {
  if (kind === 'fancy') return side === 'low' ? 'NO' : 'YES';
  return side === 'low' ? 'back' : 'lay';
}

function KeyMap() {
  return (
    <dl className="desk-keys" data-testid="desk-keymap">
      {KEY_MAP.map((entry) => (
        <div key={entry.keys}>
          <dt><kbd>{entry.keys}</kbd></dt>
          <dd>{entry.action}</dd>
        </div>
      ))}
    </dl>
  );
}

function InPlayToggle({ matchId, inPlay }: { matchId: number; inPlay: boolean }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await setInPlay(matchId, !inPlay);
      await queryClient.invalidateQueries({ queryKey: deskKey(matchId) });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn btn-sm" disabled={busy} onClick={() => void toggle()} data-testid="desk-in-play">
        {inPlay ? 'In play: turn off' : 'Turn in play'}
      </button>
      {error && <span className="field-error" role="alert">{error}</span>}
    </>
  );
}

const limitText = amountText('Stake');

/** The selected market's min and max stake, changed live. */
function LimitsForm({ market }: { market: DeskMarket }) {
  const queryClient = useQueryClient();
  const [min, setMin] = useState(String(market.min_stake));
  const [max, setMax] = useState(String(market.max_stake));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const submit = async () => {
    setSaved(null);
    const local: Record<string, string> = {};
    const minCheck = limitText.safeParse(min);
    const maxCheck = limitText.safeParse(max);
    if (!minCheck.success) local.min_stake = minCheck.error.issues[0]?.message ?? 'Check the amount.';
    if (!maxCheck.success) local.max_stake = maxCheck.error.issues[0]?.message ?? 'Check the amount.';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const answer = await setLimits(market.market_id, min.trim(), max.trim());
      if (!answer.status) return;
      setSaved(answer.message);
      await queryClient.invalidateQueries({ queryKey: deskKey(market.match_id) });
    } catch (error) {
      setErrors(error instanceof ApiError && Object.keys(error.fieldErrors).length > 0 ? error.fieldErrors : { form: errorMessage(error) });
    }
  };
  return (
    <form
      className="desk-limits form-grid"
      data-testid="desk-limits"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <b>{market.name}: stakes</b>
      <label className={`field${errors.min_stake ? ' has-error' : ''}`}>
        <span className="field-label">Min stake</span>
        <input inputMode="decimal" value={min} onChange={(e) => setMin(e.target.value)} data-testid="desk-min-stake" />
        {errors.min_stake && <span className="field-error" role="alert">{errors.min_stake}</span>}
      </label>
      <label className={`field${errors.max_stake ? ' has-error' : ''}`}>
        <span className="field-label">Max stake</span>
        <input inputMode="decimal" value={max} onChange={(e) => setMax(e.target.value)} data-testid="desk-max-stake" />
        {errors.max_stake && <span className="field-error" role="alert">{errors.max_stake}</span>}
      </label>
      <button type="submit" className="btn btn-sm" data-testid="desk-limits-save">Save stakes</button>
      {errors.form && <span className="field-error" role="alert">{errors.form}</span>}
      {saved && <span className="muted small" data-testid="desk-limits-saved">{saved}</span>}
    </form>
  );
}
