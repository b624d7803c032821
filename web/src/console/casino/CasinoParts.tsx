// What the casino screen's cards share: one way to run an action (a toast, then the screen read
// again) and to submit a form (the server's field messages beside the fields), and the on/off
// switch of a table or a listed game.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { applyServerErrors } from '../../lib/forms';
import { toastSuccess } from '../../lib/toast';
import { CASINO_ADMIN_KEY } from './api';

/** Runs one action: its message as a toast and the screen read again; a refusal as text. */
export function useAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<{ status: boolean; message: string }>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const answer = await action();
      if (!answer.status) return false;
      toastSuccess(answer.message);
      await queryClient.invalidateQueries({ queryKey: CASINO_ADMIN_KEY });
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** Submits a form's call; the server's field messages go next to the fields, the rest above the button. */
export async function submitForm<T extends FieldValues>(
  call: () => Promise<{ status: boolean; message: string }>,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  setFormError: (message: string | null) => void,
  onDone: () => Promise<void> | void,
): Promise<boolean> {
  setFormError(null);
  try {
    const answer = await call();
    if (!answer.status) return false;
    toastSuccess(answer.message);
    await onDone();
    return true;
  } catch (error) {
    setFormError(applyServerErrors(error, fields, setError));
    return false;
  }
}

export function OnOff({ on, label, disabled, onChange, testId }: { on: boolean; label: string; disabled: boolean; onChange: (on: boolean) => void; testId: string }) {
  return (
    <label className="casino-switch">
      <input type="checkbox" role="switch" aria-label={label} checked={on} disabled={disabled} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      <span className={`status-chip${on ? '' : ' locked'}`}>{on ? 'On' : 'Off'}</span>
    </label>
  );
}
