import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '../api/client';

/**
 * Puts the server's field errors (400 `data.errors`) on the form's fields; what matches no
 * field comes back as one message for the form. `fieldPath` turns the server's name of a field
 * into the form's, where they differ (`list[2].value` → `list.2.value`).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fieldPath: (field: string) => string = (field) => field,
): string | null {
  if (!(error instanceof ApiError)) return errorMessage(error);
  const errors = error.fieldErrors;
  let placed = 0;
  const rest: string[] = [];
  for (const [serverField, message] of Object.entries(errors)) {
    const field = fieldPath(serverField);
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
