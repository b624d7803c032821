import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import { fetchReport, REPORT_PAGE_LIMIT, type ReportPath, type Row } from './api';
import type enReports from '../../i18n/locales/en/reports.json';

/** A column's name: its key in the reports catalogue's `columns` (also the key of its totals cell). */
export type ColumnId = keyof (typeof enReports)['columns'];

export interface Column {
  label: ColumnId;
  /** Keys tried in turn; the first present one is shown. */
  keys: string[];
  /** money: rupees; pnl: rupees coloured by their sign (won green, lost red). */
  kind?: 'date' | 'money' | 'pnl' | 'text';
  /** Draws the cell itself (a link, card images) instead of the value of `keys`. */
  render?: (row: Row) => ReactNode;
}

function cell(row: Row, column: Column): ReactNode {
  if (column.render) return column.render(row);
  const key = column.keys.find((k) => row[k] !== undefined && row[k] !== null);
  if (!key) return '';
  const value = row[key];
  if (column.kind === 'date') return formatIstDateTime(String(value));
  if (column.kind === 'money' || column.kind === 'pnl') return formatMoney(Number(value));
  return text(value);
}

/** A figure's cell is right-aligned; a P&L's is coloured by its sign. */
function cellClass(row: Row, column: Column): string | undefined {
  if (column.kind === 'money') return 'num';
  if (column.kind !== 'pnl') return undefined;
  const key = column.keys.find((k) => typeof row[k] === 'number');
  const value = key ? Number(row[key]) : 0;
  return value > 0 ? 'num pnl win' : value < 0 ? 'num pnl lose' : 'num';
}

/** A JSON value as a table shows it: scalars as they are, anything else as JSON. */
function text(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * A report: filters over a table, paged by the server with at most 7 page links. `params` are
 * the applied filters; changing them goes back to page 1. A report whose answer adds up every
 * row (`totals`) shows them in a last row, each column's cell by its label from `totalsRow`.
 */
export function ReportView({
  title,
  path,
  params,
  filters,
  columns,
  testId,
  download = false,
  above,
  totalsRow,
}: {
  title: string;
  path: ReportPath;
  params: Record<string, unknown>;
  filters?: ReactNode;
  columns: Column[];
  testId: string;
  /** Offer the report as CSV with the applied filters (the server answers `format: 'csv'`). */
  download?: boolean;
  /** Drawn between the filters and the table (where a drill-down is). */
  above?: ReactNode;
  /** The totals' cells by column label (a label left out is an empty cell). */
  totalsRow?: (totals: Row) => Partial<Record<ColumnId, ReactNode>>;
}) {
  const { t } = useTranslation('reports');
  const [page, setPage] = useState(1);
  const [paramsKey, setParamsKey] = useState(JSON.stringify(params));
  const currentKey = JSON.stringify(params);
  if (currentKey !== paramsKey) {
    setParamsKey(currentKey);
    setPage(1);
  }
  const query = useQuery({
    queryKey: ['report', path, currentKey, page],
    queryFn: () => fetchReport(path, params, page),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const data = query.data;

  return (
    <PageCard title={title} testId={testId} actions={download ? <DownloadCsvButton path={path} params={params} /> : undefined}>
      {filters && <div className="report-filters">{filters}</div>}
      {above}
      <QueryState isPending={query.isPending} error={query.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="report-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.label}>{t(`columns.${c.label}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <tr>
                  <td colSpan={columns.length} className="empty-cell">
                    {t('empty')}
                  </td>
                </tr>
              ) : (
                data.rows.map((row, index) => (
                  <tr key={text(row.id ?? row.request_id ?? row.bet_id ?? row.round_id ?? index)}>
                    {columns.map((c) => (
                      <td key={c.label} className={cellClass(row, c)} data-label={t(`columns.${c.label}`)}>
                        {cell(row, c)}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
            {totalsRow && data?.totals && data.rows.length > 0 && <TotalsRow columns={columns} cells={totalsRow(data.totals)} />}
          </table>
        </div>
        {data && data.total > 0 && (
          <div className="report-footer">
            <span className="muted small">
              {t('showing', {
                from: (page - 1) * (data.limit || REPORT_PAGE_LIMIT) + 1,
                to: Math.min(page * (data.limit || REPORT_PAGE_LIMIT), data.total),
                total: data.total,
              })}
            </span>
            <Pagination page={page} total={data.total} limit={data.limit || REPORT_PAGE_LIMIT} onPage={setPage} />
          </div>
        )}
      </QueryState>
    </PageCard>
  );
}

/**
 * The totals under a report's rows, in its columns. The first cell names the row ("Total"), so
 * on a phone, where each cell reads "column: value", it stands alone as the card's title.
 */
function TotalsRow({ columns, cells }: { columns: Column[]; cells: Partial<Record<ColumnId, ReactNode>> }) {
  const { t } = useTranslation('reports');
  return (
    <tfoot>
      <tr className="totals-row" data-testid="report-totals">
        {columns.map((c, index) => (
          <td key={c.label} className={c.kind === 'money' || c.kind === 'pnl' ? 'num' : undefined} data-label={index === 0 || cells[c.label] === undefined ? undefined : t(`columns.${c.label}`)}>
            {cells[c.label] ?? ''}
          </td>
        ))}
      </tr>
    </tfoot>
  );
}
