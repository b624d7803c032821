// Stake buttons (Set Button Value): read by the settings form and by the bet slip, so the one
// call and its cache key live here rather than in either feature.
import { apiGet, dataOr } from './client';
import type { Schemas } from './contract';

export type ButtonType = 'Game' | 'Casino';

/** A stake button as `user/setButtonValue` takes it and `user/getButtonValue` gives it back; `type` narrowed to its values. */
export type ButtonValue = Omit<Schemas['ButtonInput'], 'type'> & { type: ButtonType };

export const BUTTON_VALUES_KEY = ['buttonValues'] as const;

/** `user/getButtonValue`: `data` is a JSON string of the entries (sometimes already a list). */
export async function getButtonValues(): Promise<ButtonValue[]> {
  const data = dataOr(await apiGet<string | ButtonValue[]>('user/getButtonValue'), null);
  if (data === null) return [];
  const list: unknown = typeof data === 'string' ? JSON.parse(data) : data;
  return Array.isArray(list) ? (list as ButtonValue[]) : [];
}
