import { apiGet, apiPost, dataOr } from '../../api/client';

export interface SearchHit {
  match_id: number;
  match_name: string;
  open_date: string;
  sport_id: number;
  series_id?: number;
}

/** `match/searchByMatchNameHeader` answers sport name → matches. */
export type SearchAnswer = Record<string, SearchHit[]>;

export async function searchMatches(search: string): Promise<SearchAnswer> {
  return dataOr(await apiPost<SearchAnswer>('match/searchByMatchNameHeader', { search }), {});
}

export interface MarketExposure {
  sub_type: string;
  bet_count: number;
  exposure?: number;
}

export interface ExposureRow {
  sport_name: string;
  match_name: string;
  match_id?: number;
  sport_id?: number;
  market_details: MarketExposure[];
}

/** `bet/getExposureDetail`: the list is `data.data`. */
export async function getExposureDetail(): Promise<ExposureRow[]> {
  const answer = dataOr(await apiGet<{ data: ExposureRow[] }>('bet/getExposureDetail'), null);
  return Array.isArray(answer?.data) ? answer.data : [];
}
