import { apiGet, apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type SearchHit = Schemas['MatchSummary'];

/** `match/searchByMatchNameHeader` answers sport name → matches. */
export type SearchAnswer = Record<string, SearchHit[]>;

export async function searchMatches(search: string): Promise<SearchAnswer> {
  return dataOr(await apiPost<SearchAnswer>('match/searchByMatchNameHeader', { search }), {});
}

export type MarketExposure = Schemas['MarketExposure'];
export type ExposureRow = Schemas['ExposureRow'];

/** `bet/getExposureDetail`: the list is `data.data`. */
export async function getExposureDetail(): Promise<ExposureRow[]> {
  const answer = dataOr(await apiGet<Schemas['ExposureDetail']>('bet/getExposureDetail'), null);
  return Array.isArray(answer?.data) ? answer.data : [];
}
