// The Casino screen's server calls (admin only): one read of everything the screen shows
// (admin/casino/list), then one call per action, each the operator function the
// `backlay admin casino …` and `backlay admin provider …` commands use, audited on the server.
import { apiGet, apiPost, apiPostFile, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type CasinoAdmin = Schemas['CasinoAdminData'];
export type CasinoTable = Schemas['CasinoTableItem'];
export type CasinoCategory = Schemas['CasinoCategoryItem'];
export type CasinoProvider = Schemas['CasinoProviderItem'];
export type CatalogueGame = Schemas['CatalogueGameItem'];
export type ProviderSecret = Schemas['ProviderSecretData'];

export const CASINO_ADMIN_KEY = ['console', 'casino'] as const;

export function getCasinoAdmin(): Promise<Answer<CasinoAdmin>> {
  return apiGet<CasinoAdmin>('admin/casino/list');
}

export function setTableActive(gameCode: string, active: boolean): Promise<Answer<CasinoTable>> {
  return apiPost<CasinoTable>('admin/casino/table/active', { game_code: gameCode, active: active ? 1 : 0 });
}

/** Stores an image for the tiles under (a safe form of) its file's name; answers the name stored. */
export function uploadTileImage(file: File): Promise<Answer<Schemas['UploadedImageItem']>> {
  return apiPostFile<Schemas['UploadedImageItem']>(`admin/upload/image?name=${encodeURIComponent(file.name)}`, file);
}

/** An uploaded image's name, or "" for the game's own art. */
export function setTableImage(gameCode: string, image: string): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/gameImage', { game_code: gameCode, image });
}

export interface NewCategory {
  sport_id: string;
  name: string;
  order: number;
}

export function addCategory(category: NewCategory): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/category/add', category);
}

export function renameCategory(sportId: string, name: string): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/category/rename', { sport_id: sportId, name });
}

export function moveCategory(sportId: string, direction: 'up' | 'down'): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/category/move', { sport_id: sportId, direction });
}

export function removeCategory(sportId: string): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/category/remove', { sport_id: sportId });
}

export interface NewProvider {
  code: string;
  name: string;
  launch_url: string;
}

export function addProvider(provider: NewProvider): Promise<Answer<ProviderSecret>> {
  return apiPost<ProviderSecret>('admin/casino/provider/add', provider);
}

export function rotateProviderSecret(code: string): Promise<Answer<ProviderSecret>> {
  return apiPost<ProviderSecret>('admin/casino/provider/rotateSecret', { code });
}

export interface NewCatalogueGame {
  provider: string;
  game_code: string;
  game_name: string;
  category: string;
  sub_provider_name: string;
  url_thumb: string;
}

export function addCatalogueGame(game: NewCatalogueGame): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/catalogue/add', game);
}

export function setCatalogueGameActive(gameId: string, active: boolean): Promise<Answer<unknown>> {
  return apiPost<unknown>('admin/casino/catalogue/active', { game_id: gameId, active: active ? 1 : 0 });
}
