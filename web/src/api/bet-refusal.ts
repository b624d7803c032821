// How a refused bet reads, for every bet slip (sports and casino).
import { i18n } from '../i18n';
import { ApiError, errorMessage } from './client';

/** A refusal in words: the server's message (a 400's first field message is its headline). */
export function betErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const field = Object.values(error.fieldErrors)[0];
    return i18n.t('betting:notPlaced.reason', { reason: field ?? error.message });
  }
  return i18n.t('betting:notPlaced.reason', { reason: errorMessage(error) });
}
