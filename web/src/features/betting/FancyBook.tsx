import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { i18n } from '../../i18n';
import { formatMinorMoney } from '../../lib/format';
import type { FancyRange } from './api';

/** "0–47", "48", "48 and above": a run range as a bettor reads it. */
export function rangeLabel(range: FancyRange): string {
  if (range.to === null) return i18n.t('betting:fancy.rangeAbove', { from: range.from });
  if (range.to === range.from) return String(range.from);
  return `${range.from}–${range.to}`;
}

/** The caller's profit or loss for each run total of a fancy (from the server's book). */
export function FancyBook({ book }: { book: FancyRange[] }) {
  const { t } = useTranslation('betting');
  if (book.length === 0) return <p className="empty-state" data-testid="fancy-book-empty">{t('fancy.noBets')}</p>;
  return (
    <table className="data-table fancy-book" data-testid="fancy-book">
      <thead>
        <tr>
          <th>{t('fancy.runs')}</th>
          <th className="num">{t('fancy.pnl')}</th>
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
  const { t } = useTranslation('betting');
  return (
    <Modal title={t('fancy.bookTitle', { name })} onClose={onClose} size="sm" testId="fancy-book-modal">
      <FancyBook book={book} />
    </Modal>
  );
}
