import { describe, expect, it } from 'vitest';
import { applyCommand, INITIAL_DESK_KEYS, pressKey, type DeskKeysState, type DeskRow } from './desk-keys';

const bookmaker: DeskRow = {
  kind: 'bookmaker',
  marketId: 1,
  status: 'open',
  spread: 5,
  runners: [
    { selectionId: 11, back: 45, lay: 50 },
    { selectionId: 12, back: null, lay: null },
  ],
};
const fancy: DeskRow = { kind: 'fancy', marketId: 2, status: 'open', spread: 1, lineNo: 50, rateNo: 100, lineYes: 51, rateYes: 90 };
const settled: DeskRow = { ...fancy, marketId: 3, status: 'closed' };
const rows = [bookmaker, fancy, settled];

/** Presses each key in turn; returns the last result and every command sent. */
function press(keys: string[], start: DeskKeysState = INITIAL_DESK_KEYS, on: readonly DeskRow[] = rows) {
  let state = start;
  const commands = [];
  let last = pressKey(state, keys[0] ?? '', on);
  for (const key of keys) {
    last = pressKey(state, key, on);
    state = last.state;
    if (last.command) commands.push(last.command);
  }
  return { state, commands, last };
}

describe('selecting', () => {
  it('moves with arrows and j/k, and stops at the ends', () => {
    expect(press(['ArrowDown']).state.selected).toBe(1);
    expect(press(['j', 'j', 'j', 'j']).state.selected).toBe(2);
    expect(press(['k']).state.selected).toBe(0);
    expect(press(['j', 'ArrowUp']).state.selected).toBe(0);
  });

  it('picks a bookmaker runner with left and right, and forgets it on another market', () => {
    expect(press(['l']).state.runner).toBe(1);
    expect(press(['ArrowRight', 'ArrowRight']).state.runner).toBe(1);
    expect(press(['l', 'h']).state.runner).toBe(0);
    expect(press(['l', 'j']).state.runner).toBe(0);
  });

  it('keeps the selection inside the rows when they shrink', () => {
    expect(pressKey({ ...INITIAL_DESK_KEYS, selected: 5 }, 's', rows.slice(0, 2)).command).toEqual({ kind: 'status', marketId: 2, status: 'suspended' });
  });
});

describe('status keys', () => {
  it('s suspends an open or ball-running market and opens a suspended one', () => {
    expect(press(['s']).commands).toEqual([{ kind: 'status', marketId: 1, status: 'suspended' }]);
    const suspended = [{ ...bookmaker, status: 'suspended' as const }];
    expect(press(['s'], INITIAL_DESK_KEYS, suspended).commands).toEqual([{ kind: 'status', marketId: 1, status: 'open' }]);
    const running = [{ ...bookmaker, status: 'ball_running' as const }];
    expect(press(['s'], INITIAL_DESK_KEYS, running).commands).toEqual([{ kind: 'status', marketId: 1, status: 'suspended' }]);
  });

  it('b and space toggle ball running', () => {
    expect(press(['b']).commands).toEqual([{ kind: 'status', marketId: 1, status: 'ball_running' }]);
    const running = [{ ...bookmaker, status: 'ball_running' as const }];
    expect(press([' '], INITIAL_DESK_KEYS, running).commands).toEqual([{ kind: 'status', marketId: 1, status: 'open' }]);
    expect(press([' ']).last.handled).toBe(true);
  });

  it('sends nothing for a settled market', () => {
    const result = press(['j', 'j', 's', 'b', '+']);
    expect(result.state.selected).toBe(2);
    expect(result.commands).toEqual([]);
    expect(result.last.handled).toBe(false);
  });
});

describe('fancy lines and rates', () => {
  it('+ and - move both lines by one, keeping the gap', () => {
    expect(press(['j', '+']).commands).toEqual([{ kind: 'fancy', marketId: 2, lineNo: 51, rateNo: 100, lineYes: 52, rateYes: 90 }]);
    expect(press(['j', '=']).commands[0]).toMatchObject({ lineNo: 51, lineYes: 52 });
    expect(press(['j', '-']).commands[0]).toMatchObject({ lineNo: 49, lineYes: 50 });
  });

  it('never takes a line below zero', () => {
    const low = [{ ...fancy, lineNo: 0, lineYes: 1 }];
    expect(press(['-'], INITIAL_DESK_KEYS, low).commands[0]).toMatchObject({ lineNo: 0, lineYes: 1 });
  });

  it('opens a fresh fancy at the typed line with even rates, YES at the spread', () => {
    const fresh = [{ ...fancy, spread: 0, lineNo: null, rateNo: null, lineYes: null, rateYes: null }];
    expect(press(['4', '2', 'Enter'], INITIAL_DESK_KEYS, fresh).commands).toEqual([
      { kind: 'fancy', marketId: 2, lineNo: 42, rateNo: 100, lineYes: 42, rateYes: 100 },
    ]);
    expect(press(['4', '2', 'Enter'], INITIAL_DESK_KEYS, [{ ...fresh[0], spread: 3 }]).commands[0]).toMatchObject({ lineNo: 42, lineYes: 45 });
  });

  it('a typed line puts YES at the market spread, whatever the gap was', () => {
    const wide = [{ ...fancy, spread: 2, lineNo: 50, lineYes: 57 }];
    expect(press(['6', '0', 'Enter'], INITIAL_DESK_KEYS, wide).commands[0]).toMatchObject({ lineNo: 60, lineYes: 62 });
  });

  it('typed digits then Enter set the line; Esc and Backspace edit the entry', () => {
    expect(press(['j', '6', '0', 'Enter']).commands).toEqual([{ kind: 'fancy', marketId: 2, lineNo: 60, rateNo: 100, lineYes: 61, rateYes: 90 }]);
    const typed = press(['j', '6', '0']);
    expect(typed.state.entry).toBe('60');
    expect(typed.commands).toEqual([]);
    const cancelled = press(['j', '6', 'Escape', 'Enter']);
    expect(cancelled.state.entry).toBeNull();
    expect(cancelled.commands).toEqual([]);
    expect(press(['j', '6', '5', 'Backspace', 'Enter']).commands[0]).toMatchObject({ lineNo: 6, lineYes: 7 });
  });

  it('[ and ] move both fancy rates', () => {
    expect(press(['j', ']']).commands[0]).toMatchObject({ lineNo: 50, rateNo: 101, lineYes: 51, rateYes: 91 });
    expect(press(['j', '[']).commands[0]).toMatchObject({ rateNo: 99, rateYes: 89 });
  });
});

describe('one side alone (n and y)', () => {
  it('n moves the NO line alone and never above YES; n again moves both', () => {
    const picked = press(['j', 'n']);
    expect(picked.state.side).toBe('low');
    expect(picked.commands).toEqual([]);
    expect(press(['j', 'n', '-']).commands[0]).toMatchObject({ lineNo: 49, lineYes: 51 });
    expect(press(['j', 'n', '+', '+']).commands.map((c) => c.kind === 'fancy' && [c.lineNo, c.lineYes])).toEqual([
      [51, 51],
      [51, 51],
    ]);
    expect(press(['j', 'n', 'n']).state.side).toBe('both');
  });

  it('y moves the YES line and rate alone and never below NO', () => {
    expect(press(['j', 'y', '+']).commands[0]).toMatchObject({ lineNo: 50, lineYes: 52, rateNo: 100, rateYes: 90 });
    expect(press(['j', 'y', ']']).commands[0]).toMatchObject({ rateNo: 100, rateYes: 91 });
    const level = [{ ...fancy, lineYes: 50 }];
    expect(press(['y', '-'], INITIAL_DESK_KEYS, level).commands[0]).toMatchObject({ lineNo: 50, lineYes: 50 });
    expect(press(['j', 'y', '7', '0', 'Enter']).commands[0]).toMatchObject({ lineNo: 50, lineYes: 70 });
    // A typed YES below NO takes NO down with it.
    expect(press(['j', 'y', '4', '0', 'Enter']).commands[0]).toMatchObject({ lineNo: 40, lineYes: 40 });
  });

  it('n and y set a bookmaker runner back or lay alone, keeping back ≤ lay', () => {
    expect(press(['y', '5', '8', 'Enter']).commands[0]).toMatchObject({ runners: [{ back: 45, lay: 58 }, {}] });
    expect(press(['y', ']']).commands[0]).toMatchObject({ runners: [{ back: 45, lay: 51 }, {}] });
    expect(press(['n', '[']).commands[0]).toMatchObject({ runners: [{ back: 44, lay: 50 }, {}] });
    expect(press(['n', '6', '0', 'Enter']).commands[0]).toMatchObject({ runners: [{ back: 60, lay: 60 }, {}] });
  });

  it('another market goes back to both sides', () => {
    expect(press(['y', 'j']).state.side).toBe('both');
    expect(press(['y', 'l']).state.side).toBe('high');
  });
});

describe('the spread', () => {
  it('typed digits then / set the market spread', () => {
    expect(press(['3', '/']).commands).toEqual([{ kind: 'spread', marketId: 1, spread: 3 }]);
    expect(press(['9', '9', '9', '9', '/']).commands[0]).toMatchObject({ spread: 1000 });
    expect(press(['/']).last).toMatchObject({ command: null, handled: false });
    expect(applyCommand(bookmaker, { kind: 'spread', marketId: 1, spread: 3 })).toMatchObject({ spread: 3 });
  });

  it('a typed back rate puts the lay at the market spread', () => {
    const narrow = [{ ...bookmaker, spread: 2 }];
    expect(press(['8', '0', 'Enter'], INITIAL_DESK_KEYS, narrow).commands[0]).toMatchObject({ runners: [{ back: 80, lay: 82 }, {}] });
  });
});

describe('bookmaker rates', () => {
  it('[ and ] move the selected runner back and lay together', () => {
    expect(press([']']).commands).toEqual([
      { kind: 'bookmaker', marketId: 1, runners: [{ selectionId: 11, back: 46, lay: 51 }, { selectionId: 12, back: null, lay: null }] },
    ]);
    expect(press(['[']).commands[0]).toMatchObject({ runners: [{ back: 44, lay: 49 }, {}] });
  });

  it('a typed rate sets the runner back rate, lay above it by the market spread', () => {
    expect(press(['8', '0', 'Enter']).commands[0]).toMatchObject({ runners: [{ back: 80, lay: 85 }, { back: null }] });
    expect(press(['l', '3', '0', 'Enter']).commands[0]).toMatchObject({ runners: [{ back: 45, lay: 50 }, { selectionId: 12, back: 30, lay: 35 }] });
  });

  it('+ and - do nothing on a bookmaker', () => {
    expect(press(['+']).last).toMatchObject({ command: null, handled: false });
  });

  it('never posts a rate below 1', () => {
    const low = [{ ...bookmaker, runners: [{ selectionId: 11, back: 1, lay: 3 }] }];
    expect(press(['['], INITIAL_DESK_KEYS, low).commands[0]).toMatchObject({ runners: [{ back: 1, lay: 3 }] });
  });
});

describe('applyCommand', () => {
  it('shows the change on its own row only', () => {
    expect(applyCommand(fancy, { kind: 'status', marketId: 2, status: 'ball_running' })).toMatchObject({ status: 'ball_running' });
    expect(applyCommand(bookmaker, { kind: 'status', marketId: 2, status: 'ball_running' })).toBe(bookmaker);
    expect(applyCommand(fancy, { kind: 'fancy', marketId: 2, lineNo: 7, rateNo: 1, lineYes: 8, rateYes: 2 })).toMatchObject({ lineNo: 7, lineYes: 8 });
    const moved = applyCommand(bookmaker, { kind: 'bookmaker', marketId: 1, runners: [{ selectionId: 11, back: 60, lay: 65 }] });
    expect(moved).toMatchObject({ runners: [{ back: 60, lay: 65 }] });
  });
});

describe('unknown keys', () => {
  it('are left to the page', () => {
    expect(pressKey(INITIAL_DESK_KEYS, 'x', rows)).toEqual({ state: INITIAL_DESK_KEYS, command: null, handled: false });
    expect(pressKey(INITIAL_DESK_KEYS, 'Escape', rows).handled).toBe(false);
    expect(pressKey(INITIAL_DESK_KEYS, 's', []).command).toBeNull();
  });
});
