import { formatIstDateTime } from '../../lib/format';
import type { SearchAnswer } from './api';

export interface SearchGroup {
  sport: string;
  matches: { match_id: number; sport_id: number; match_name: string; date: string }[];
}

/** Search results as the header lists them: by sport name, each match with its IST start. */
export function groupSearchResults(answer: SearchAnswer | null | undefined): SearchGroup[] {
  if (!answer || typeof answer !== 'object') return [];
  return Object.entries(answer)
    .filter(([, hits]) => Array.isArray(hits) && hits.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([sport, hits]) => ({
      sport,
      matches: hits.map((hit) => ({
        match_id: hit.match_id,
        sport_id: hit.sport_id,
        match_name: hit.match_name,
        date: formatIstDateTime(hit.open_date),
      })),
    }));
}
