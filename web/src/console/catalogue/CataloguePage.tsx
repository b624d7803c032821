// `#/console/markets[/<matchId>]`: the catalogue. Create a series, a match and its markets;
// open, suspend, turn in play; declare a result or void, after a confirmation that shows what
// settling moves (admin/market/resultPreview: the settlement's own figures, nothing written);
// correct a wrong result ("Correct result…": admin/market/unsettle, after its preview per client
// and per share and a reason), which takes the market back to suspended for the right one;
// withdraw a runner ("Withdraw runner…": admin/market/removeRunner, a non-runner with its
// reduction factor, after a confirmation of what it does), which cannot be undone.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { ApiError, dataOr, errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { formatMoney } from '../../lib/format';
import { toastSuccess } from '../../lib/toast';
import '../desk/desk.css';
import {
  correctResult,
  declareResult,
  deskKey,
  getDesk,
  previewCorrection,
  previewResult,
  removeRunner,
  setInPlay,
  setStatus,
  type CorrectionLine,
  type DeskMarket,
  type Outcome,
  type RunnerRemoved,
} from '../desk/api';
import { without } from '../desk/desk-keys';
import { EmptyRow } from '../TableParts';
import {
  createMarket,
  createMatch,
  createSeries,
  getMatches,
  getSeries,
  getSports,
  matchesKey,
  seriesKey,
  sportsKey,
  type MarketKind,
} from './api';

export function CatalogueRoutes() {
  return (
    <Routes>
      <Route index element={<CataloguePage />} />
      <Route path=":matchId" element={<CataloguePage />} />
    </Routes>
  );
}

type Errors = Record<string, string>;

/** A 400's field messages, or one message for the whole form. */
function refusal(error: unknown): Errors {
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) return error.fieldErrors;
  return { form: errorMessage(error) };
}

function Form({ title, testId, onSubmit, errors, busy, submit, children }: {
  title: string;
  testId: string;
  onSubmit: () => Promise<void>;
  errors: Errors;
  busy: boolean;
  submit: string;
  children: ReactNode;
}) {
  return (
    <form
      className="stack-form catalogue-form"
      data-testid={testId}
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <h2>{title}</h2>
      {children}
      {errors.form && <ErrorMessage>{errors.form}</ErrorMessage>}
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>{submit}</button>
    </form>
  );
}

export function CataloguePage() {
  const matchId = Number(useParams().matchId ?? NaN);
  const [sportId, setSportId] = useState(4);
  const sports = useQuery({ queryKey: sportsKey, queryFn: async () => dataOr(await getSports(), []) });
  const matches = useQuery({ queryKey: matchesKey(sportId), queryFn: async () => dataOr(await getMatches(sportId), []) });
  return (
    <PageCard title="Markets" testId="catalogue-page">
      <div className="catalogue">
        <div className="catalogue-side">
          <Field label="Sport">
            <select value={sportId} onChange={(e) => setSportId(Number(e.target.value))} data-testid="catalogue-sport">
              {(sports.data ?? []).map((s) => (
                <option key={s.sport_id} value={s.sport_id}>{s.name}</option>
              ))}
            </select>
          </Field>
          <SeriesForm sportId={sportId} />
          <MatchForm sportId={sportId} />
          <h2>Matches</h2>
          <QueryState isPending={matches.isPending} error={matches.error}>
            <ul className="catalogue-matches" data-testid="catalogue-matches">
              {(matches.data ?? []).map((m) => (
                <li key={m.match_id} className={m.match_id === matchId ? 'selected' : ''}>
                  <Link to={`/console/markets/${m.match_id}`} data-testid="catalogue-match">{m.name}</Link>
                  {m.in_play && <span className="status-chip"> in play</span>}
                </li>
              ))}
            </ul>
          </QueryState>
        </div>
        <div className="catalogue-main">
          {Number.isFinite(matchId) && matchId > 0 ? <MatchMarkets matchId={matchId} /> : <p className="muted">Pick a match, or create one.</p>}
        </div>
      </div>
    </PageCard>
  );
}

function SeriesForm({ sportId }: { sportId: number }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!name.trim()) return setErrors({ name: 'Series name is required.' });
    setBusy(true);
    setErrors({});
    try {
      const answer = await createSeries(sportId, name.trim());
      if (!answer.status) return;
      toastSuccess(answer.message);
      setName('');
      await queryClient.invalidateQueries({ queryKey: seriesKey(sportId) });
    } catch (error) {
      setErrors(refusal(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form title="New series" testId="series-form" onSubmit={submit} errors={errors} busy={busy} submit="Create series">
      <Field label="Name" error={errors.name}>
        <input value={name} onChange={(e) => setName(e.target.value)} data-testid="series-name" />
      </Field>
    </Form>
  );
}

function MatchForm({ sportId }: { sportId: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const series = useQuery({ queryKey: seriesKey(sportId), queryFn: async () => dataOr(await getSeries(sportId), []) });
  const [values, setValues] = useState({ series_id: '', name: '', start: '', venue: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const submit = async () => {
    const local: Errors = {};
    if (!values.series_id) local.series_id = 'Choose a series.';
    if (!values.name.trim()) local.name = 'Match name is required.';
    const start = new Date(values.start);
    if (!values.start || Number.isNaN(start.getTime())) local.open_date = 'Choose the start date and time.';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const answer = await createMatch({
        series_id: Number(values.series_id),
        name: values.name.trim(),
        open_date: start.toISOString(),
        ...(values.venue.trim() ? { venue: values.venue.trim() } : {}),
      });
      if (!answer.status) return;
      toastSuccess(answer.message);
      setValues((v) => ({ ...v, name: '', venue: '' }));
      await queryClient.invalidateQueries({ queryKey: matchesKey(sportId) });
      void navigate(`/console/markets/${answer.data.id}`);
    } catch (error) {
      setErrors(refusal(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form title="New match" testId="match-form" onSubmit={submit} errors={errors} busy={busy} submit="Create match">
      <Field label="Series" error={errors.series_id}>
        <select value={values.series_id} onChange={set('series_id')} data-testid="match-series">
          <option value="">Choose…</option>
          {(series.data ?? []).map((s) => (
            <option key={s.series_id} value={s.series_id}>{s.name}</option>
          ))}
        </select>
      </Field>
      <Field label="Name" error={errors.name}>
        <input value={values.name} onChange={set('name')} placeholder="India v Australia" data-testid="match-name" />
      </Field>
      <Field label="Start" error={errors.open_date}>
        <input type="datetime-local" value={values.start} onChange={set('start')} data-testid="match-start" />
      </Field>
      <Field label="Venue" error={errors.venue}>
        <input value={values.venue} onChange={set('venue')} data-testid="match-venue" />
      </Field>
    </Form>
  );
}

/** The markets with runners that can be withdrawn: exchange (and racing) and bookmaker. */
const WITHDRAWABLE: readonly DeskMarket['type'][] = ['match_odds', 'win', 'place', 'bookmaker'];

const KINDS: readonly { kind: MarketKind; label: string }[] = [
  { kind: 'match_odds', label: 'Match odds' },
  { kind: 'bookmaker', label: 'Bookmaker' },
  { kind: 'fancy', label: 'Fancy' },
  { kind: 'win', label: 'Win (racing)' },
  { kind: 'place', label: 'Place (racing)' },
];

function MatchMarkets({ matchId }: { matchId: number }) {
  const queryClient = useQueryClient();
  const desk = useQuery({ queryKey: deskKey(matchId), queryFn: async () => dataOr(await getDesk(matchId), null) });
  const [resulting, setResulting] = useState<{ market: DeskMarket; void: boolean } | null>(null);
  const [correcting, setCorrecting] = useState<DeskMarket | null>(null);
  const [withdrawing, setWithdrawing] = useState<DeskMarket | null>(null);
  // Refusals by market id; the match's own (in play) under 0.
  const [rowError, setRowError] = useState<Record<number, string>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: deskKey(matchId) });
  const act = async (marketId: number, action: () => Promise<unknown>) => {
    setRowError((e) => without(e, marketId));
    try {
      await action();
    } catch (error) {
      setRowError((e) => ({ ...e, [marketId]: errorMessage(error) }));
    }
    await refresh();
  };
  const data = desk.data;
  return (
    <QueryState isPending={desk.isPending} error={desk.error}>
      {data && (
        <section data-testid="catalogue-match-markets">
          <h2>
            {data.match.name}{' '}
            <button
              type="button"
              className="btn btn-sm"
              data-testid="catalogue-in-play"
              onClick={() => void act(0, () => setInPlay(matchId, !data.match.in_play))}
            >
              {data.match.in_play ? 'In play: turn off' : 'Turn in play'}
            </button>{' '}
            <Link className="btn btn-sm" to={`/console/desk/${matchId}`} data-testid="catalogue-open-desk">Open desk</Link>
          </h2>
          {rowError[0] && <ErrorMessage>{rowError[0]}</ErrorMessage>}
          <table className="data-table" data-testid="catalogue-markets">
            <thead>
              <tr>
                <th scope="col">Market</th>
                <th scope="col">Status</th>
                <th scope="col">Stakes</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.markets.length === 0 && (
                <EmptyRow colSpan={4}>No markets yet.</EmptyRow>
              )}
              {data.markets.map((m) => {
                const settled = m.status === 'closed' || m.status === 'void';
                const nonRunners = m.runners.filter((r) => r.removed);
                const withdrawable = WITHDRAWABLE.includes(m.type) && m.runners.some((r) => !r.removed);
                return (
                  <tr key={m.market_id} data-testid={`catalogue-market-${m.market_id}`}>
                    <td>
                      <b>{m.name}</b> <span className="muted small">{m.type}</span>
                      {nonRunners.length > 0 && (
                        <div className="small muted" data-testid="catalogue-non-runners">
                          Non-runner{nonRunners.length === 1 ? '' : 's'}: {nonRunners.map((r) => r.name).join(', ')}
                        </div>
                      )}
                      {rowError[m.market_id] && <div className="field-error" role="alert">{rowError[m.market_id]}</div>}
                    </td>
                    <td>
                      <span className="status-chip" data-testid="catalogue-status">{m.status.replace('_', ' ')}</span>
                      {m.result_value !== null && <span className="small"> {m.result_value} runs</span>}
                      {m.result_selection_id !== null && (
                        <span className="small" data-testid="catalogue-result"> {resultText(m)}</span>
                      )}
                    </td>
                    <td>{formatMoney(m.min_stake)} – {formatMoney(m.max_stake)}</td>
                    <td className="row-actions">
                      {!settled && (
                        <>
                          {m.status !== 'open' ? (
                            <button type="button" className="btn btn-sm" data-testid="market-open" onClick={() => void act(m.market_id, () => setStatus(m.market_id, 'open'))}>Open</button>
                          ) : (
                            <button type="button" className="btn btn-sm" data-testid="market-suspend" onClick={() => void act(m.market_id, () => setStatus(m.market_id, 'suspended'))}>Suspend</button>
                          )}
                          <button type="button" className="btn btn-sm" data-testid="market-result" onClick={() => setResulting({ market: m, void: false })}>Result…</button>
                          <button type="button" className="btn btn-sm btn-danger" data-testid="market-void" onClick={() => setResulting({ market: m, void: true })}>Void…</button>
                          {withdrawable && (
                            <button type="button" className="btn btn-sm btn-danger" data-testid="market-withdraw" onClick={() => setWithdrawing(m)}>Withdraw runner…</button>
                          )}
                        </>
                      )}
                      {settled && (
                        <button type="button" className="btn btn-sm btn-danger" data-testid="market-correct" onClick={() => setCorrecting(m)}>Correct result…</button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <MarketForm matchId={matchId} onCreated={() => void refresh()} />
          {correcting && (
            <CorrectionDialog
              market={correcting}
              onClose={() => setCorrecting(null)}
              onCorrected={() => {
                setCorrecting(null);
                void refresh();
              }}
            />
          )}
          {withdrawing && (
            <WithdrawDialog market={withdrawing} onClose={() => setWithdrawing(null)} onWithdrawn={() => void refresh()} />
          )}
          {resulting && (
            <ResultDialog
              market={resulting.market}
              voiding={resulting.void}
              onClose={() => setResulting(null)}
              onSettled={() => {
                setResulting(null);
                void refresh();
              }}
            />
          )}
        </section>
      )}
    </QueryState>
  );
}

function MarketForm({ matchId, onCreated }: { matchId: number; onCreated: () => void }) {
  const [values, setValues] = useState({ type: 'bookmaker' as MarketKind, name: '', runners: '', min: '100', max: '100000', delay: '', places: '3' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const fancy = values.type === 'fancy';
  const submit = async () => {
    setBusy(true);
    setErrors({});
    try {
      const house = values.type === 'bookmaker' || fancy;
      const answer = await createMarket({
        match_id: matchId,
        type: values.type,
        name: values.name.trim(),
        runners: fancy ? [] : values.runners.split('\n').map((r) => r.trim()).filter(Boolean),
        min_stake: values.min.trim(),
        max_stake: values.max.trim(),
        bet_delay_s: values.delay.trim() === '' ? (house ? 0 : 5) : Number(values.delay),
        ...(values.type === 'place' ? { winners: Number(values.places.trim()) } : {}),
      });
      if (!answer.status) return;
      toastSuccess(answer.message);
      setValues((v) => ({ ...v, name: '', runners: '' }));
      onCreated();
    } catch (error) {
      setErrors(refusal(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form title="New market" testId="market-form" onSubmit={submit} errors={errors} busy={busy} submit="Create market">
      <div className="form-grid">
        <Field label="Type" error={errors.type}>
          <select value={values.type} onChange={set('type')} data-testid="market-type">
            {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
          </select>
        </Field>
        <Field label="Name" error={errors.name}>
          <input value={values.name} onChange={set('name')} placeholder={fancy ? '6 over runs' : 'Bookmaker'} data-testid="market-name" />
        </Field>
        <Field label="Min stake" error={errors.min_stake}>
          <input inputMode="decimal" value={values.min} onChange={set('min')} data-testid="market-min" />
        </Field>
        <Field label="Max stake" error={errors.max_stake}>
          <input inputMode="decimal" value={values.max} onChange={set('max')} data-testid="market-max" />
        </Field>
        <Field label="Bet delay (s)" error={errors.bet_delay_s}>
          <input inputMode="numeric" value={values.delay} onChange={set('delay')} placeholder="default" data-testid="market-delay" />
        </Field>
        {values.type === 'place' && (
          <Field label="Places paid" error={errors.winners}>
            <input inputMode="numeric" value={values.places} onChange={set('places')} data-testid="market-places" />
          </Field>
        )}
      </div>
      {!fancy && (
        <Field label="Runners, one a line" error={errors.runners}>
          <textarea rows={3} value={values.runners} onChange={set('runners')} data-testid="market-runners" />
        </Field>
      )}
    </Form>
  );
}

/** "Comet won", "Comet, Arrow placed": the runners a settled market's result named. */
function resultText(market: DeskMarket): string {
  const ids = market.result_selection_ids.length > 0 ? market.result_selection_ids : [market.result_selection_id];
  const names = ids.map((id) => market.runners.find((r) => r.selection_id === id)?.name ?? `#${id}`).join(', ');
  return `${names} ${market.type === 'place' ? 'placed' : 'won'}`;
}

/** The runners chosen for a place market's places, first place first; an empty choice is skipped. */
function placedOf(places: readonly string[]): number[] {
  return places.filter(Boolean).map(Number);
}

/** The outcome the dialog's inputs name, or null until they name one. */
function outcomeOf(market: DeskMarket, voiding: boolean, winner: string, places: readonly string[], runs: string): Outcome | null {
  if (voiding) return { void: true };
  if (market.type === 'fancy') return /^\d{1,6}$/.test(runs.trim()) ? { runs: Number(runs.trim()) } : null;
  if (market.type === 'place') {
    const placed = placedOf(places);
    return placed.length > 0 && new Set(placed).size === placed.length ? { placedSelectionIds: placed } : null;
  }
  return winner ? { winnerSelectionId: Number(winner) } : null;
}

const ORDINALS = ['1st', '2nd', '3rd'];
const ordinal = (index: number) => ORDINALS[index] ?? `${index + 1}th`;

/** Declare a result (or void) after seeing what it moves. */
function ResultDialog({ market, voiding, onClose, onSettled }: { market: DeskMarket; voiding: boolean; onClose: () => void; onSettled: () => void }) {
  const [winner, setWinner] = useState('');
  // One choice per place the market pays (a place market; unused otherwise).
  const [places, setPlaces] = useState<string[]>(() => Array.from({ length: market.winners }, () => ''));
  const [runs, setRuns] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const outcome = outcomeOf(market, voiding, winner, places, runs);
  // A withdrawn runner (a non-runner) can be neither the winner nor placed.
  const running = market.runners.filter((r) => !r.removed);
  const placed = placedOf(places);
  const placedTwice = new Set(placed).size !== placed.length;
  const preview = useQuery({
    queryKey: ['console', 'resultPreview', market.market_id, outcome],
    queryFn: async () => dataOr(await previewResult(market.market_id, outcome as Outcome), null),
    enabled: outcome !== null,
    retry: false,
  });
  const confirm = async () => {
    if (!outcome) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await declareResult(market.market_id, outcome);
      if (!answer.status) return;
      toastSuccess(answer.message);
      onSettled();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const figures = preview.data;
  return (
    <Modal title={`${voiding ? 'Void' : 'Result of'} ${market.name}`} onClose={onClose} testId="result-dialog">
      <div className="stack-form">
        {!voiding && market.type === 'fancy' && (
          <Field label="Runs scored" error={preview.error ? errorMessage(preview.error) : undefined}>
            <input inputMode="numeric" value={runs} onChange={(e) => setRuns(e.target.value)} data-testid="result-runs" autoFocus />
          </Field>
        )}
        {!voiding && market.type === 'place' && (
          <fieldset className="stack-form" data-testid="result-places">
            <legend>Placed runners ({market.winners} places paid; leave a place empty if fewer finished)</legend>
            {places.map((choice, index) => (
              <Field key={index} label={ordinal(index)}>
                <select
                  value={choice}
                  onChange={(e) => setPlaces((now) => now.map((c, i) => (i === index ? e.target.value : c)))}
                  data-testid={`result-place-${index + 1}`}
                >
                  <option value="">—</option>
                  {running.map((r) => <option key={r.selection_id} value={r.selection_id}>{r.name}</option>)}
                </select>
              </Field>
            ))}
            {placedTwice && <ErrorMessage>Each runner can take one place only.</ErrorMessage>}
            {preview.error && <ErrorMessage>{errorMessage(preview.error)}</ErrorMessage>}
          </fieldset>
        )}
        {!voiding && market.type !== 'fancy' && market.type !== 'place' && (
          <Field label="Winner" error={preview.error ? errorMessage(preview.error) : undefined}>
            <select value={winner} onChange={(e) => setWinner(e.target.value)} data-testid="result-winner">
              <option value="">Choose…</option>
              {running.map((r) => <option key={r.selection_id} value={r.selection_id}>{r.name}</option>)}
            </select>
          </Field>
        )}
        {voiding && <p>Every bet on this market is off; no money moves but exposure is released.</p>}
        {figures && (
          <p className="result-preview" data-testid="result-preview">
            Settling this moves: clients win {formatMoney(figures.clients_win)}, lose {formatMoney(figures.clients_lose)}, house{' '}
            {figures.house_pnl >= 0 ? '+' : ''}{formatMoney(figures.house_pnl)}
            {figures.commission > 0 && <>, commission {formatMoney(figures.commission)}</>}, {figures.bets} bets ({figures.winners} clients win,{' '}
            {figures.losers} lose).
          </p>
        )}
        {voiding && preview.error && <ErrorMessage>{errorMessage(preview.error)}</ErrorMessage>}
        {error && <ErrorMessage>{error}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="button" className="btn btn-primary" disabled={busy || !figures} onClick={() => void confirm()} data-testid="result-confirm">
            {voiding ? 'Void market' : 'Declare result'}
          </button>
        </div>
      </div>
    </Modal>
  );
}

const ACCOUNT_LABEL: Record<CorrectionLine['account'], string> = {
  client: 'Client',
  share: 'Agent share',
  house: 'House',
  commission: 'Commission',
};

/**
 * Take a wrong result back: what the correction moves per client and per agent's share (the
 * correction's own transaction, rolled back), and the reason, which the audit log keeps.
 */
function CorrectionDialog({ market, onClose, onCorrected }: { market: DeskMarket; onClose: () => void; onCorrected: () => void }) {
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const preview = useQuery({
    queryKey: ['console', 'correctionPreview', market.market_id],
    queryFn: async () => dataOr(await previewCorrection(market.market_id), null),
    retry: false,
  });
  const confirm = async () => {
    if (!reason.trim()) {
      setErrors({ reason: 'Say why the result is being corrected: it is kept in the audit log.' });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const answer = await correctResult(market.market_id, reason.trim());
      if (!answer.status) return;
      toastSuccess(answer.message);
      onCorrected();
    } catch (failure) {
      setErrors(refusal(failure));
    } finally {
      setBusy(false);
    }
  };
  const figures = preview.data;
  return (
    <Modal title={`Correct the result of ${market.name}`} onClose={onClose} testId="correction-dialog">
      <div className="stack-form">
        <p>
          Every posting of this market&apos;s {market.status === 'void' ? 'void' : 'settlement'} is reversed by new
          &ldquo;Result corrected&rdquo; entries, its bets are live again and the market is suspended. Then declare the right
          result. A client who has spent the winnings taken back goes below zero and owes them.
        </p>
        {preview.error && <ErrorMessage>{errorMessage(preview.error)}</ErrorMessage>}
        {figures && (
          <table className="data-table" data-testid="correction-preview">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Moves</th>
                <th scope="col">Balance after</th>
                <th scope="col">Exposure back</th>
              </tr>
            </thead>
            <tbody>
              {figures.lines.length === 0 && <EmptyRow colSpan={4}>No money moves.</EmptyRow>}
              {figures.lines.map((line) => (
                <tr key={`${line.account}-${line.user_id ?? 0}`} data-testid={`correction-${line.account}-${line.user_id ?? 0}`}>
                  <td>
                    {ACCOUNT_LABEL[line.account]} {line.user_name ?? (line.user_id !== null ? `#${line.user_id}` : '')}
                  </td>
                  <td>{line.amount >= 0 ? '+' : ''}{formatMoney(line.amount)}</td>
                  <td className={`pnl ${line.balance_after < 0 ? 'lose' : ''}`}>
                    {line.account === 'client' || line.account === 'share' ? formatMoney(line.balance_after) : ''}
                    {line.account === 'client' && line.available_after < 0 && <span className="small"> (owes {formatMoney(-line.available_after)})</span>}
                  </td>
                  <td>{line.account === 'client' ? formatMoney(line.exposure) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {figures && figures.clients_negative > 0 && (
          <p className="field-error" data-testid="correction-negative">
            {figures.clients_negative} client{figures.clients_negative === 1 ? '' : 's'} will owe more than they hold.
          </p>
        )}
        <Field label="Reason (kept in the audit log)" error={errors.reason}>
          <input
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setErrors((now) => ({ ...now, reason: '' }));
            }}
            maxLength={200}
            data-testid="correction-reason"
            autoFocus
          />
        </Field>
        {errors.form && <ErrorMessage>{errors.form}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="button" className="btn btn-danger" disabled={busy || !figures} onClick={() => void confirm()} data-testid="correction-confirm">
            Correct result
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** A reduction factor as typed: a percentage from 0 to 100 with at most 2 decimals, or null. */
function reductionFactorOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(trimmed)) return null;
  const factor = Number(trimmed);
  return factor <= 100 ? factor : null;
}

/** From this reduction factor (a percentage) up, unmatched bets are cancelled and matched prices reduced. */
const REDUCING_FACTOR = 2.5;

/**
 * Withdraw a runner (a non-runner): pick it and its reduction factor, read what that does, then
 * confirm. It cannot be undone, so nothing is sent before the confirmation.
 */
function WithdrawDialog({ market, onClose, onWithdrawn }: { market: DeskMarket; onClose: () => void; onWithdrawn: () => void }) {
  const candidates = market.runners.filter((r) => !r.removed);
  const [selection, setSelection] = useState('');
  const [factorText, setFactorText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ message: string; row: RunnerRemoved | null } | null>(null);
  const runner = candidates.find((r) => String(r.selection_id) === selection);
  const factor = reductionFactorOf(factorText);
  const next = () => {
    const local: Errors = {};
    if (!runner) local.selection_id = 'Choose the runner to withdraw.';
    if (factor === null) local.reduction_factor = 'Reduction factor must be a percentage from 0 to 100 with at most 2 decimals (0 if none applies).';
    setErrors(local);
    if (Object.keys(local).length === 0) setConfirming(true);
  };
  const confirm = async () => {
    if (!runner || factor === null) return;
    setBusy(true);
    setErrors({});
    try {
      const answer = await removeRunner(market.market_id, runner.selection_id, factor);
      if (!answer.status) return;
      setDone({ message: answer.message || `${runner.name} withdrawn.`, row: answer.data ?? null });
      onWithdrawn();
    } catch (failure) {
      const refused = refusal(failure);
      setErrors(refused);
      // A field refused goes back to the fields; a refusal of the whole (409) stays here.
      if (!refused.form) setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`Withdraw a runner from ${market.name}`} onClose={onClose} testId="withdraw-dialog">
      <div className="stack-form">
        {done ? (
          <>
            <p className="notice success" role="status" data-testid="withdraw-done">{done.message}</p>
            {done.row && (
              <p className="small" data-testid="withdraw-figures">
                {done.row.name}: {done.row.bets_void} bet{done.row.bets_void === 1 ? '' : 's'} void
                {done.row.prices_reduced
                  ? `, ${done.row.unmatched_cancelled} unmatched cancelled, ${done.row.matches_reduced} matched price${done.row.matches_reduced === 1 ? '' : 's'} reduced by ${done.row.reduction_factor} %.`
                  : '; no prices reduced.'}
              </p>
            )}
            <div className="modal-actions">
              <button type="button" className="btn btn-primary" onClick={onClose} data-testid="withdraw-close">Close</button>
            </div>
          </>
        ) : confirming && runner && factor !== null ? (
          <>
            <p data-testid="withdraw-summary">
              Withdraw <b>{runner.name}</b> from {market.name} as a non-runner, with a reduction factor of <b>{factor} %</b>.
            </p>
            <p className="notice" data-testid="withdraw-warning">
              Its bets are void; with a factor of {REDUCING_FACTOR} % or more every unmatched bet of the market is cancelled and prices
              matched before on the other runners are reduced. This cannot be undone.
            </p>
            <p className="small">
              {factor >= REDUCING_FACTOR
                ? `At ${factor} %: unmatched bets on this market are cancelled and earlier matched prices on the other runners reduced.`
                : `At ${factor} %: only ${runner.name}'s bets are void; other bets and prices stay as they are.`}
            </p>
            {errors.form && <ErrorMessage>{errors.form}</ErrorMessage>}
            <div className="modal-actions">
              <button type="button" className="btn" onClick={onClose} data-testid="withdraw-cancel" disabled={busy}>Cancel</button>
              <button type="button" className="btn" onClick={() => setConfirming(false)} data-testid="withdraw-back" disabled={busy}>Back</button>
              <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy} data-testid="withdraw-confirm">
                Withdraw {runner.name}
              </button>
            </div>
          </>
        ) : (
          <>
            <Field label="Runner" error={errors.selection_id}>
              <select value={selection} onChange={(e) => setSelection(e.target.value)} data-testid="withdraw-runner" autoFocus>
                <option value="">Choose…</option>
                {candidates.map((r) => <option key={r.selection_id} value={r.selection_id}>{r.name}</option>)}
              </select>
            </Field>
            <Field label="Reduction factor (%)" error={errors.reduction_factor}>
              <input inputMode="decimal" value={factorText} onChange={(e) => setFactorText(e.target.value)} placeholder="e.g. 12.5" data-testid="withdraw-factor" />
            </Field>
            {errors.form && <ErrorMessage>{errors.form}</ErrorMessage>}
            <div className="modal-actions">
              <button type="button" className="btn" onClick={onClose}>Cancel</button>
              <button type="button" className="btn btn-primary" onClick={next} data-testid="withdraw-next">Continue</button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
