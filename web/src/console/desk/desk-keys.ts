// The trading desk's keyboard, as pure logic: a key and the desk as it stands in, the desk's
// next state and the one command to send out. The page only wires keydown to `pressKey` and
// posts the command, so every rule here is unit-tested without a browser.
//
// Example, a fancy at NO 50 / YES 51 with a spread of 2 selected: `+` → NO 51 / YES 52 (the gap
// kept); typing `6` `0` then Enter → NO 60 / YES 62 (the market's spread); `y` then `+` → YES 63
// alone; `y` again → both sides together; `b` → ball running; `b` again → open. Typing `3` then
// `/` makes 3 the market's spread.
//
// Each market's spread (the server's `spread`, set with `/`) is where a typed figure puts the
// other side: a bookmaker's lay that far above the typed back, a fancy's YES line that far above
// the typed NO line. `n` and `y` pick one side alone (NO or back, YES or lay) for every key until
// pressed again; a side moved alone never crosses the other (NO ≤ YES, back ≤ lay).

/** A market as the desk's keys see it (bookmaker: rates per runner; fancy: the two lines). */
export type DeskRow =
  | {
      kind: 'bookmaker';
      marketId: number;
      status: DeskStatus;
      /** The desk's spread: the lay this many points above a typed back. */
      spread: number;
      runners: { selectionId: number; back: number | null; lay: number | null }[];
    }
  | {
      kind: 'fancy';
      marketId: number;
      status: DeskStatus;
      /** The desk's spread: the YES line this many runs above a typed NO line. */
      spread: number;
      lineNo: number | null;
      rateNo: number | null;
      lineYes: number | null;
      rateYes: number | null;
    };

export type DeskStatus = 'open' | 'suspended' | 'ball_running' | 'closed' | 'void';

/**
 * Which side the keys move: both together, or one alone: `low` is a fancy's NO line and rate or
 * a bookmaker's back, `high` a fancy's YES line and rate or a bookmaker's lay.
 */
export type DeskSide = 'both' | 'low' | 'high';

export interface DeskKeysState {
  /** Index of the selected row. */
  selected: number;
  /** The selected bookmaker runner (0-based), for `[`, `]` and typed rates. */
  runner: number;
  /** Digits typed and not yet entered; null when none. */
  entry: string | null;
  /** The side the keys move (`n` and `y`); back to both on another market. */
  side: DeskSide;
}

export type DeskCommand =
  | { kind: 'status'; marketId: number; status: 'open' | 'suspended' | 'ball_running' }
  | { kind: 'fancy'; marketId: number; lineNo: number; rateNo: number; lineYes: number; rateYes: number }
  | { kind: 'bookmaker'; marketId: number; runners: { selectionId: number; back: number | null; lay: number | null }[] }
  | { kind: 'spread'; marketId: number; spread: number };

export interface KeyResult {
  state: DeskKeysState;
  command: DeskCommand | null;
  /** Whether the page should swallow the key (no scrolling on space or arrows). */
  handled: boolean;
}

export const INITIAL_DESK_KEYS: DeskKeysState = { selected: 0, runner: 0, entry: null, side: 'both' };

/** A fancy with no posted rate takes even money. */
export const DEFAULT_FANCY_RATE = 100;
/** The server's bounds (crates/server/src/api/market.rs: MAX_LINE, MAX_RATE; store markets.rs: MAX_DESK_SPREAD). */
export const MAX_LINE = 100_000;
export const MAX_RATE = 100_000;
export const MAX_SPREAD = 1_000;
/** The most digits a typed line or rate may have. */
const MAX_ENTRY_DIGITS = 6;

/** The key map, shown on screen in this order. */
export const KEY_MAP: readonly { keys: string; action: string }[] = [
  { keys: '↑ ↓ / k j', action: 'select market' },
  { keys: '← → / h l', action: 'select runner (bookmaker)' },
  { keys: 's', action: 'suspend / open' },
  { keys: 'b / space', action: 'ball running / open' },
  { keys: 'n / y', action: 'move NO or back alone / YES or lay alone (again: both)' },
  { keys: '+ -', action: 'fancy line ±1 (both: the gap kept)' },
  { keys: '[ ]', action: 'rates −1 / +1 (runner back and lay; fancy NO and YES rates)' },
  { keys: '0–9 Enter', action: 'set the line (fancy) or rate (runner); both: the other side at the spread' },
  { keys: '0–9 /', action: "set the market's spread" },
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

type FancyRow = Extract<DeskRow, { kind: 'fancy' }>;
type BookmakerRow = Extract<DeskRow, { kind: 'bookmaker' }>;

function fancyCommand(row: FancyRow, lineNo: number, lineYes: number, rateNo: number, rateYes: number): DeskCommand {
  return { kind: 'fancy', marketId: row.marketId, lineNo, rateNo, lineYes, rateYes };
}

/**
 * The fancy's lines with the side's line set by `to` (from its current line): both sides keep
 * their gap, a side alone never crosses the other; never below 0.
 */
function moveLine(row: FancyRow, side: DeskSide, to: (line: number) => number): DeskCommand {
  const rateNo = row.rateNo ?? DEFAULT_FANCY_RATE;
  const rateYes = row.rateYes ?? DEFAULT_FANCY_RATE;
  const lineNo = row.lineNo ?? 0;
  const lineYes = row.lineYes ?? lineNo + row.spread;
  if (side === 'low') return fancyCommand(row, clamp(to(lineNo), 0, lineYes), lineYes, rateNo, rateYes);
  if (side === 'high') return fancyCommand(row, lineNo, clamp(to(lineYes), lineNo, MAX_LINE), rateNo, rateYes);
  const gap = Math.max(0, lineYes - lineNo);
  const next = clamp(to(lineNo), 0, MAX_LINE - gap);
  return fancyCommand(row, next, next + gap, rateNo, rateYes);
}

/** A typed line: the side's line alone (the other pushed along if crossed), or both, YES at the spread. */
function typeLine(row: FancyRow, side: DeskSide, value: number): DeskCommand {
  const rateNo = row.rateNo ?? DEFAULT_FANCY_RATE;
  const rateYes = row.rateYes ?? DEFAULT_FANCY_RATE;
  const line = clamp(value, 0, MAX_LINE);
  if (side === 'low') return fancyCommand(row, line, Math.max(row.lineYes ?? line + row.spread, line), rateNo, rateYes);
  if (side === 'high') return fancyCommand(row, Math.min(row.lineNo ?? line - row.spread, line), line, rateNo, rateYes);
  const lineNo = clamp(value, 0, MAX_LINE - row.spread);
  return fancyCommand(row, lineNo, lineNo + row.spread, rateNo, rateYes);
}

function moveFancyRates(row: FancyRow, side: DeskSide, by: number): DeskCommand | null {
  if (row.lineNo === null || row.lineYes === null) return null;
  const move = (rate: number | null, moved: boolean) => clamp((rate ?? DEFAULT_FANCY_RATE) + (moved ? by : 0), 1, MAX_RATE);
  return fancyCommand(row, row.lineNo, row.lineYes, move(row.rateNo, side !== 'high'), move(row.rateYes, side !== 'low'));
}

/**
 * The runner's rates with the side's rate set by `to` (from its current rate): both keep their
 * distance, a side alone never crosses the other (back ≤ lay); `typed` sets both at the spread.
 */
function setRunnerRates(row: BookmakerRow, index: number, side: DeskSide, to: (rate: number) => number, typed: boolean): DeskCommand | null {
  const runner = row.runners[index];
  if (!runner) return null;
  let back: number;
  let lay: number;
  if (side === 'low') {
    back = clamp(to(runner.back ?? 0), 1, MAX_RATE);
    lay = Math.max(runner.lay ?? back + row.spread, back);
  } else if (side === 'high') {
    lay = clamp(to(runner.lay ?? runner.back ?? 0), 1, MAX_RATE);
    back = Math.min(runner.back ?? lay - row.spread, lay);
  } else {
    const spread = !typed && runner.back !== null && runner.lay !== null ? runner.lay - runner.back : row.spread;
    back = clamp(to(runner.back ?? 0), 1, MAX_RATE - Math.max(0, spread));
    lay = back + spread;
  }
  back = clamp(back, 1, MAX_RATE);
  lay = clamp(lay, 1, MAX_RATE);
  return {
    kind: 'bookmaker',
    marketId: row.marketId,
    runners: row.runners.map((r, i) => (i === index ? { selectionId: r.selectionId, back, lay } : { ...r })),
  };
}

/** The side picked by `n` (low) or `y` (high): pressed again, both sides together. */
function pickSide(current: DeskSide, picked: DeskSide): DeskSide {
  return current === picked ? 'both' : picked;
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
    const same = next === selected;
    return { state: { selected: next, runner: same ? at.runner : 0, entry: null, side: same ? at.side : 'both' }, command: null, handled: true };
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
  const side = at.side;
  switch (key) {
    case 'n':
    case 'y':
      return { state: { ...at, side: pickSide(side, key === 'n' ? 'low' : 'high') }, command: null, handled: true };
    case '/': {
      if (at.entry === null) return unhandled(at);
      return send({ kind: 'spread', marketId: row.marketId, spread: clamp(Number(at.entry), 0, MAX_SPREAD) });
    }
    case 's':
      return send({ kind: 'status', marketId: row.marketId, status: row.status === 'suspended' ? 'open' : 'suspended' });
    case 'b':
    case ' ':
      return send({ kind: 'status', marketId: row.marketId, status: row.status === 'ball_running' ? 'open' : 'ball_running' });
    case '+':
    case '=':
      return row.kind === 'fancy' ? send(moveLine(row, side, (line) => line + 1)) : unhandled(at);
    case '-':
      return row.kind === 'fancy' ? send(moveLine(row, side, (line) => line - 1)) : unhandled(at);
    case '[':
    case ']': {
      const by = key === ']' ? 1 : -1;
      return send(row.kind === 'fancy' ? moveFancyRates(row, side, by) : setRunnerRates(row, at.runner, side, (rate) => rate + by, false));
    }
    case 'Enter': {
      if (at.entry === null) return unhandled(at);
      const value = Number(at.entry);
      return send(row.kind === 'fancy' ? typeLine(row, side, value) : setRunnerRates(row, at.runner, side, () => value, true));
    }
    default:
      return unhandled(at);
  }
}

/** The row as it looks once `command` is applied: the desk shows it before the server answers. */
export function applyCommand(row: DeskRow, command: DeskCommand): DeskRow {
  if (command.marketId !== row.marketId) return row;
  if (command.kind === 'status') return { ...row, status: command.status };
  if (command.kind === 'spread') return { ...row, spread: command.spread };
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
