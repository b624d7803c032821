// The trading desk's keyboard, as pure logic: a key and the desk as it stands in, the desk's
// next state and the one command to send out. The page only wires keydown to `pressKey` and
// posts the command, so every rule here is unit-tested without a browser.
//
// Example, a fancy at NO 50 / YES 51 selected: `+` → line NO 51 / YES 52; typing `6` `0` then
// Enter → NO 60 / YES 61 (the gap kept); `b` → ball running; `b` again → open.

/** A market as the desk's keys see it (bookmaker: rates per runner; fancy: the two lines). */
export type DeskRow =
  | {
      kind: 'bookmaker';
      marketId: number;
      status: DeskStatus;
      runners: { selectionId: number; back: number | null; lay: number | null }[];
    }
  | {
      kind: 'fancy';
      marketId: number;
      status: DeskStatus;
      lineNo: number | null;
      rateNo: number | null;
      lineYes: number | null;
      rateYes: number | null;
    };

export type DeskStatus = 'open' | 'suspended' | 'ball_running' | 'closed' | 'void';

export interface DeskKeysState {
  /** Index of the selected row. */
  selected: number;
  /** The selected bookmaker runner (0-based), for `[`, `]` and typed rates. */
  runner: number;
  /** Digits typed and not yet entered; null when none. */
  entry: string | null;
}

export type DeskCommand =
  | { kind: 'status'; marketId: number; status: 'open' | 'suspended' | 'ball_running' }
  | { kind: 'fancy'; marketId: number; lineNo: number; rateNo: number; lineYes: number; rateYes: number }
  | { kind: 'bookmaker'; marketId: number; runners: { selectionId: number; back: number | null; lay: number | null }[] };

export interface KeyResult {
  state: DeskKeysState;
  command: DeskCommand | null;
  /** Whether the page should swallow the key (no scrolling on space or arrows). */
  handled: boolean;
}

export const INITIAL_DESK_KEYS: DeskKeysState = { selected: 0, runner: 0, entry: null };

/** A fancy with no posted rate takes even money. */
export const DEFAULT_FANCY_RATE = 100;
/** A bookmaker runner with no lay rate yet is laid this much above its back rate. */
export const DEFAULT_BOOKMAKER_SPREAD = 5;
/** The server's bounds (crates/server/src/api/market.rs: MAX_LINE, MAX_RATE). */
export const MAX_LINE = 100_000;
export const MAX_RATE = 100_000;
/** The most digits a typed line or rate may have. */
const MAX_ENTRY_DIGITS = 6;

/** The key map, shown on screen in this order. */
export const KEY_MAP: readonly { keys: string; action: string }[] = [
  { keys: '↑ ↓ / k j', action: 'select market' },
  { keys: '← → / h l', action: 'select runner (bookmaker)' },
  { keys: 's', action: 'suspend / open' },
  { keys: 'b / space', action: 'ball running / open' },
  { keys: '+ -', action: 'fancy line NO and YES ±1' },
  { keys: '[ ]', action: 'rates −1 / +1 (runner back and lay; fancy NO and YES rates)' },
  { keys: '0–9 Enter', action: 'set the line (fancy) or back rate (runner)' },
  { keys: 'Esc', action: 'cancel typing' },
];

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const isSettled = (status: DeskStatus) => status === 'closed' || status === 'void';

function unhandled(state: DeskKeysState): KeyResult {
  return { state, command: null, handled: false };
}

function runnerCount(row: DeskRow | undefined): number {
  return row?.kind === 'bookmaker' ? row.runners.length : 0;
}

/** The fancy's lines moved by `by`, the gap between NO and YES kept, never below 0. */
function moveLine(row: Extract<DeskRow, { kind: 'fancy' }>, to: (lineNo: number) => number): DeskCommand {
  const lineNo = row.lineNo ?? 0;
  const gap = Math.max(0, (row.lineYes ?? lineNo) - lineNo);
  const next = clamp(to(lineNo), 0, MAX_LINE - gap);
  return {
    kind: 'fancy',
    marketId: row.marketId,
    lineNo: next,
    rateNo: row.rateNo ?? DEFAULT_FANCY_RATE,
    lineYes: next + gap,
    rateYes: row.rateYes ?? DEFAULT_FANCY_RATE,
  };
}

function moveFancyRates(row: Extract<DeskRow, { kind: 'fancy' }>, by: number): DeskCommand | null {
  if (row.lineNo === null || row.lineYes === null) return null;
  return {
    kind: 'fancy',
    marketId: row.marketId,
    lineNo: row.lineNo,
    rateNo: clamp((row.rateNo ?? DEFAULT_FANCY_RATE) + by, 1, MAX_RATE),
    lineYes: row.lineYes,
    rateYes: clamp((row.rateYes ?? DEFAULT_FANCY_RATE) + by, 1, MAX_RATE),
  };
}

/** The runner's back rate set by `to`, its lay kept the same distance above. */
function setRunnerRates(row: Extract<DeskRow, { kind: 'bookmaker' }>, index: number, to: (back: number) => number): DeskCommand | null {
  const runner = row.runners[index];
  if (!runner) return null;
  const spread = runner.back !== null && runner.lay !== null ? runner.lay - runner.back : DEFAULT_BOOKMAKER_SPREAD;
  const back = clamp(to(runner.back ?? 0), 1, MAX_RATE - Math.max(0, spread));
  const lay = clamp(back + spread, 1, MAX_RATE);
  return {
    kind: 'bookmaker',
    marketId: row.marketId,
    runners: row.runners.map((r, i) => (i === index ? { selectionId: r.selectionId, back, lay } : { ...r })),
  };
}

/**
 * What `key` (KeyboardEvent.key) does on the desk. Rows that are settled take no command;
 * an unknown key is left to the page.
 */
export function pressKey(state: DeskKeysState, key: string, rows: readonly DeskRow[]): KeyResult {
  const selected = rows.length === 0 ? 0 : clamp(state.selected, 0, rows.length - 1);
  const row = rows[selected];
  const at = { ...state, selected };
  const select = (index: number): KeyResult => {
    const next = rows.length === 0 ? 0 : clamp(index, 0, rows.length - 1);
    return { state: { selected: next, runner: next === selected ? at.runner : 0, entry: null }, command: null, handled: true };
  };
  const send = (command: DeskCommand | null): KeyResult => ({ state: { ...at, entry: null }, command, handled: true });

  if (/^\d$/.test(key)) {
    const entry = ((at.entry ?? '') + key).slice(0, MAX_ENTRY_DIGITS);
    return { state: { ...at, entry }, command: null, handled: true };
  }
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return select(selected + 1);
    case 'ArrowUp':
    case 'k':
      return select(selected - 1);
    case 'ArrowRight':
    case 'l':
    case 'ArrowLeft':
    case 'h': {
      const count = runnerCount(row);
      if (count === 0) return { state: at, command: null, handled: true };
      const step = key === 'ArrowRight' || key === 'l' ? 1 : -1;
      return { state: { ...at, runner: clamp(at.runner + step, 0, count - 1), entry: null }, command: null, handled: true };
    }
    case 'Escape':
      return { state: { ...at, entry: null }, command: null, handled: at.entry !== null };
    case 'Backspace':
      if (at.entry === null) return unhandled(at);
      return { state: { ...at, entry: at.entry.length > 1 ? at.entry.slice(0, -1) : null }, command: null, handled: true };
  }
  if (!row || isSettled(row.status)) return unhandled(at);
  switch (key) {
    case 's':
      return send({ kind: 'status', marketId: row.marketId, status: row.status === 'suspended' ? 'open' : 'suspended' });
    case 'b':
    case ' ':
      return send({ kind: 'status', marketId: row.marketId, status: row.status === 'ball_running' ? 'open' : 'ball_running' });
    case '+':
    case '=':
      return row.kind === 'fancy' ? send(moveLine(row, (line) => line + 1)) : unhandled(at);
    case '-':
      return row.kind === 'fancy' ? send(moveLine(row, (line) => line - 1)) : unhandled(at);
    case '[':
    case ']': {
      const by = key === ']' ? 1 : -1;
      return send(row.kind === 'fancy' ? moveFancyRates(row, by) : setRunnerRates(row, at.runner, (back) => back + by));
    }
    case 'Enter': {
      if (at.entry === null) return unhandled(at);
      const value = Number(at.entry);
      return send(row.kind === 'fancy' ? moveLine(row, () => value) : setRunnerRates(row, at.runner, () => value));
    }
    default:
      return unhandled(at);
  }
}

/** The row as it looks once `command` is applied: the desk shows it before the server answers. */
export function applyCommand(row: DeskRow, command: DeskCommand): DeskRow {
  if (command.marketId !== row.marketId) return row;
  if (command.kind === 'status') return { ...row, status: command.status };
  if (command.kind === 'fancy' && row.kind === 'fancy') {
    return { ...row, lineNo: command.lineNo, rateNo: command.rateNo, lineYes: command.lineYes, rateYes: command.rateYes };
  }
  if (command.kind === 'bookmaker' && row.kind === 'bookmaker') return { ...row, runners: command.runners.map((r) => ({ ...r })) };
  return row;
}

/** `record` without `key`'s entry (the pages' per-row pending changes and errors). */
export function without<T>(record: Record<number, T>, key: number): Record<number, T> {
  const rest = { ...record };
  delete rest[key];
  return rest;
}
