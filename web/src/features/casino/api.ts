import { getCasinoGames, type CasinoGameInfo } from '../../api/casino-games';
import { apiGet, apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type CasinoSport = Schemas['CasinoSportItem'];

export type CasinoGame = CasinoGameInfo;

export type StaticGame = Schemas['StaticGame'];

/** `casino/getCasinoSport`: a list (sometimes a JSON string), sorted by `order`. */
export async function getCasinoSports(): Promise<CasinoSport[]> {
  const data = dataOr(await apiGet<CasinoSport[] | string>('casino/getCasinoSport'), []);
  const list: unknown = typeof data === 'string' ? JSON.parse(data) : data;
  return (Array.isArray(list) ? (list as CasinoSport[]) : [])
    .filter((s) => Number(s.is_active) !== 0)
    .sort((a, b) => a.order - b.order);
}

/** `casino/getCasinoList`: the in-house games (shared with the rules page, see api/casino-games.ts). */
export const getCasinoList = getCasinoGames;

export async function getStaticGames(): Promise<StaticGame[]> {
  return dataOr(await apiGet<StaticGame[]>('casino/getStaticGames'), []);
}

/** Spec §7: the provider name is fixed; the platform is desktop (spec §9). */
export const CASINO_PROVIDER_NAME = 'mac88';
export const CASINO_PLATFORM = 'desktop';

/** Asks the server for a provider game session; answers the game's address (data.url). */
export async function launchGame(gameId: string | number): Promise<string | null> {
  const answer = await apiPost<Schemas['GapLoginAnswer']>('gap/gaplogin', {
    providerName: CASINO_PROVIDER_NAME,
    gameId: String(gameId),
    platformId: CASINO_PLATFORM,
    lobby: false,
    redirectUrl: `${window.location.origin}${window.location.pathname}#/casino/mac88`,
  });
  return answer.status ? answer.data.url : null;
}
