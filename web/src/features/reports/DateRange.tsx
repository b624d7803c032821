import { useState, type ReactNode } from 'react';
import { istDateKey, shiftDateKey } from '../../lib/format';

export type DateRangeValue = {
  from_date: string;
  to_date: string;
};

export function defaultRange(days = 7): DateRangeValue {
  const today = istDateKey();
  return { from_date: shiftDateKey(today, -days), to_date: today };
}

/** From/to date inputs (yyyy-MM-dd at IST) with a Submit; `extra` holds a report's other filters. */
export function DateRangeFilter({
  initial,
  onApply,
  extra,
}: {
  initial: DateRangeValue;
  onApply: (range: DateRangeValue) => void;
  extra?: ReactNode;
}) {
  const [from, setFrom] = useState(initial.from_date);
  const [to, setTo] = useState(initial.to_date);
  const invalid = !from || !to || from > to;
  return (
    <form
      className="filter-row"
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) onApply({ from_date: from, to_date: to });
      }}
    >
      <label>
        From
        <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} data-testid="filter-from" />
      </label>
      <label>
        To
        <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} data-testid="filter-to" />
      </label>
      {extra}
      <button type="submit" className="btn btn-primary" disabled={invalid} data-testid="filter-submit">
        Submit
      </button>
      {invalid && <span className="field-error">The start date must be on or before the end date.</span>}
    </form>
  );
}
