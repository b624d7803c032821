import { apiPost, dataOr } from '../../api/client';

/** Lists that grow answer `{rows, total, page, limit}` (shared/design/API.md). */
export interface Page<Row> {
  rows: Row[];
  total: number;
  page: number;
  limit: number;
}

export type Row = Record<string, unknown>;

export const REPORT_PAGE_LIMIT = 20;

export async function fetchReport(path: string, params: Record<string, unknown>, page: number, limit = REPORT_PAGE_LIMIT): Promise<Page<Row>> {
  const data = dataOr(await apiPost<Page<Row> | Row[]>(path, { ...params, page, limit }), null);
  if (Array.isArray(data)) return { rows: data, total: data.length, page, limit };
  return {
    rows: Array.isArray(data?.rows) ? data.rows : [],
    total: Number(data?.total ?? 0),
    page: Number(data?.page ?? page),
    limit: Number(data?.limit ?? limit),
  };
}
