import { Modal } from '../../components/Modal';
import { formatMinorMoney } from '../../lib/format';
import type { FancyRange } from './api';

/** "0–47", "48", "48 and above": a run range as a bettor reads it. */
export function rangeLabel(range: FancyRange): string {
  if (range.to === null) return `${range.from} and above`;
  if (range.to === range.from) return String(range.from);
  return `${range.from}–${range.to}`;
}

/** The caller's profit or loss for each run total of a fancy (from the server's book). */
export function FancyBook({ book }: { book: FancyRange[] }) {
  if (book.length === 0) return <p className="empty-state" data-testid="fancy-book-empty">You have no bets on this fancy yet.</p>;
  return (
    <table className="data-table fancy-book" data-testid="fancy-book">
      <thead>
        <tr>
          <th>Runs</th>
          <th className="num">Profit / Loss</th>
        </tr>
      </thead>
      <tbody>
        {book.map((range) => {
          const minor = Math.round(range.pnl * 100);
          return (
            <tr key={range.from} data-testid="fancy-book-row">
              <td>{rangeLabel(range)}</td>
              <td className={`num ${minor > 0 ? 'pnl win' : minor < 0 ? 'pnl lose' : ''}`}>{formatMinorMoney(minor)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function FancyBookModal({ name, book, onClose }: { name: string; book: FancyRange[]; onClose: () => void }) {
  return (
    <Modal title={`Book: ${name}`} onClose={onClose} size="sm" testId="fancy-book-modal">
      <FancyBook book={book} />
    </Modal>
  );
}
