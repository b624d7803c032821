import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { istDateKey, shiftDateKey } from '../../lib/format';

export type DateRangeValue = {
  from_date: string;
  to_date: string;
};

export function defaultRange(days = 7): DateRangeValue {
  const today = istDateKey();
  return { from_date: shiftDateKey(today, -days), to_date: today };
}

/** A day key (yyyy-MM-dd) as the tables write days: dd/mm/yyyy. */
export function dayText(dayKey: string): string {
  const [year, month, day] = dayKey.split('-');
  return year && month && day ? `${day}/${month}/${year}` : '';
}

/** A day typed as dd/mm/yyyy (or d/m/yyyy, with / - or .) as a day key, or null when no such day exists. */
export function parseDayText(text: string): string | null {
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${match[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * One day, typed as dd/mm/yyyy like the tables show days, or picked from the browser's calendar
 * (whose own box would show the day in the browser's locale, so it stays hidden behind a button).
 */
function DayInput({ label, pickerLabel, text, onText, testId }: { label: string; pickerLabel: string; text: string; onText: (text: string) => void; testId: string }) {
  const { t } = useTranslation('reports');
  const picker = useRef<HTMLInputElement>(null);
  const key = parseDayText(text);
  return (
    <label>
      {label}
      <span className="day-input">
        <input type="text" inputMode="numeric" placeholder={t('range.placeholder')} value={text} onChange={(e) => onText(e.target.value)} aria-invalid={key === null} data-testid={testId} />
        <button
          type="button"
          className="day-picker-btn"
          aria-label={pickerLabel}
          onClick={() => {
            const input = picker.current;
            if (input && typeof input.showPicker === 'function') input.showPicker();
          }}
        >
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <rect x="3.5" y="5" width="17" height="15" rx="2" stroke="currentColor" strokeWidth="2" fill="none" />
            <line x1="3.5" y1="10" x2="20.5" y2="10" stroke="currentColor" strokeWidth="2" />
            <line x1="8" y1="3" x2="8" y2="7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            <line x1="16" y1="3" x2="16" y2="7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <input ref={picker} type="date" className="day-picker" tabIndex={-1} aria-hidden="true" value={key ?? ''} onChange={(e) => e.target.value && onText(dayText(e.target.value))} />
      </span>
    </label>
  );
}

/** From/to days (dd/mm/yyyy at IST) with a Submit; `extra` holds a report's other filters. */
export function DateRangeFilter({
  initial,
  onApply,
  extra,
}: {
  initial: DateRangeValue;
  onApply: (range: DateRangeValue) => void;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('reports');
  const [fromText, setFromText] = useState(dayText(initial.from_date));
  const [toText, setToText] = useState(dayText(initial.to_date));
  const from = parseDayText(fromText);
  const to = parseDayText(toText);
  const problem =
    from === null || to === null ? t('range.invalid') : from > to ? t('range.order') : null;
  return (
    <form
      className="filter-row"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem && from && to) onApply({ from_date: from, to_date: to });
      }}
    >
      <DayInput label={t('range.from')} pickerLabel={t('range.pickFrom')} text={fromText} onText={setFromText} testId="filter-from" />
      <DayInput label={t('range.to')} pickerLabel={t('range.pickTo')} text={toText} onText={setToText} testId="filter-to" />
      {extra}
      <button type="submit" className="btn btn-primary" disabled={problem !== null} data-testid="filter-submit">
        {t('submit')}
      </button>
      {problem && <span className="field-error">{problem}</span>}
    </form>
  );
}
