// The in-house casino games (`casino/getCasinoList`): read by the casino pages (list, table)
// and by the rules page's Casino tab, so the one call and its cache key live here rather than
// in either feature.
import { apiPost, dataOr } from './client';
import type { Schemas } from './contract';

/** An in-house game: `match_id` for `casino/match/{match_id}`, `game_code` the client's code (`teen20`), `name` the sidebar's label. */
export type CasinoGameInfo = Schemas['CasinoGameItem'];

export const casinoGamesKey = (seriesId = '') => ['casinoList', seriesId] as const;

/** The games of a casino category, or of every category without one, in the sidebar's order. */
export async function getCasinoGames(seriesId?: string): Promise<CasinoGameInfo[]> {
  return dataOr(await apiPost<CasinoGameInfo[]>('casino/getCasinoList', seriesId ? { series_id: seriesId } : {}), []);
}

/** The game a route names by id ("4") or by code ("dt6"). */
export function findCasinoGame(games: CasinoGameInfo[] | undefined, idOrCode: string): CasinoGameInfo | undefined {
  return games?.find((g) => String(g.match_id) === idOrCode || g.game_code === idOrCode);
}
