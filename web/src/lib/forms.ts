import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '../api/client';

/**
 * Puts the server's field errors (400 `data.errors`) on the form's fields; what matches no
 * field comes back as one message for the form.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): string | null {
  if (!(error instanceof ApiError)) return errorMessage(error);
  const errors = error.fieldErrors;
  let placed = 0;
  const rest: string[] = [];
  for (const [field, message] of Object.entries(errors)) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message });
      placed += 1;
    } else {
      rest.push(message);
    }
  }
  if (placed > 0 && rest.length === 0) return null;
  return rest.length > 0 ? rest.join(' ') : error.message;
}
