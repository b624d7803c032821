// How a refused bet reads, for every bet slip (sports and casino).
import { ApiError, errorMessage } from './client';

/** A refusal in words: the server's message (a 400's first field message is its headline). */
export function betErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const field = Object.values(error.fieldErrors)[0];
    return `Bet not placed: ${field ?? error.message}`;
  }
  return `Bet not placed: ${errorMessage(error)}`;
}
