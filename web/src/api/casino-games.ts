// The in-house casino games (`casino/getCasinoList`): read by the casino pages (list, table)
// and by the rules page's Casino tab, so the one call and its cache key live here rather than
// in either feature.
import { apiPost, dataOr } from './client';

export interface CasinoGameInfo {
  /** The game's id, for `casino/match/{match_id}`. */
  match_id: number | string;
  /** The client's code (`teen20`, `dt6` …). */
  game_code?: string;
  /** The sidebar's label ("DT 1 DAY"). */
  name: string;
  /** The full name ("Dragon Tiger 1 Day"). */
  title?: string;
  series_id?: string;
  image?: string;
  /** The rules for players, one paragraph a line (empty from a server without them). */
  rules?: string[];
}

export const casinoGamesKey = (seriesId = '') => ['casinoList', seriesId] as const;

/** The games of a casino category, or of every category without one, in the sidebar's order. */
export async function getCasinoGames(seriesId?: string): Promise<CasinoGameInfo[]> {
  return dataOr(await apiPost<CasinoGameInfo[]>('casino/getCasinoList', seriesId ? { series_id: seriesId } : {}), []);
}

/** The game a route names by id ("4") or by code ("dt6"). */
export function findCasinoGame(games: CasinoGameInfo[] | undefined, idOrCode: string): CasinoGameInfo | undefined {
  return games?.find((g) => String(g.match_id) === idOrCode || g.game_code === idOrCode);
}
