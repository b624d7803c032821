import { useTranslation } from 'react-i18next';

/** Spec §9: at most 7 page links by default, with Previous and Next. */
export const MAX_PAGE_LINKS = 7;

/** The page numbers to link: a window of at most `max` pages around `current`, inside 1..pageCount. */
export function pageWindow(current: number, pageCount: number, max = MAX_PAGE_LINKS): number[] {
  if (pageCount <= 0) return [];
  const size = Math.min(max, pageCount);
  let start = Math.max(1, current - Math.floor(size / 2));
  start = Math.min(start, pageCount - size + 1);
  return Array.from({ length: size }, (_, i) => start + i);
}

export function Pagination({
  page,
  total,
  limit,
  onPage,
  max = MAX_PAGE_LINKS,
}: {
  page: number;
  total: number;
  limit: number;
  onPage: (page: number) => void;
  max?: number;
}) {
  const { t } = useTranslation();
  const pageCount = Math.max(1, Math.ceil(total / Math.max(1, limit)));
  const pages = pageWindow(page, pageCount, max);
  return (
    <nav className="pagination" aria-label={t('pagination.label')} data-testid="pagination">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pagination.previous')}
      </button>
      {pages.map((p) => (
        <button
          type="button"
          key={p}
          className={p === page ? 'active' : undefined}
          aria-current={p === page ? 'page' : undefined}
          onClick={() => onPage(p)}
        >
          {p}
        </button>
      ))}
      <button type="button" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        {t('pagination.next')}
      </button>
    </nav>
  );
}
