// Pieces every console list shares: the row that stands in for no rows, and the footer under a
// list longer than one page.
import type { ReactNode } from 'react';
import { Pagination } from '../components/Pagination';

/** A table's only row when it has nothing to show, across all `colSpan` columns. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="empty-cell">{children}</td>
    </tr>
  );
}

/** Which rows this page shows ("26–50 of 120") and the page links; nothing when one page holds all. */
export function PagedFooter({ page, total, limit, onPage }: { page: number; total: number; limit: number; onPage: (page: number) => void }) {
  if (total <= limit) return null;
  return (
    <div className="report-footer">
      <span className="muted small">
        {(page - 1) * limit + 1}–{Math.min(page * limit, total)} of {total}
      </span>
      <Pagination page={page} total={total} limit={limit} onPage={onPage} />
    </div>
  );
}
