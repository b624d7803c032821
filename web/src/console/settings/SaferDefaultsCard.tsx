import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { parseStake, toMinor } from '../../lib/money';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { getSaferDefaults, SAFER_DEFAULTS_KEY, saveSaferDefaults, type SaferDefaults, type SaferDefaultsInput } from './api';

/** An amount above zero with at most 2 decimals, or empty for none; kept as its text. */
const optionalAmount = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^(\d{1,10}(\.\d{1,2})?)?$/, `${label} must be a number with at most 2 decimals, or empty for none.`)
    .refine((text) => text === '' || /[1-9]/.test(text), `${label} must be more than 0, or empty for none.`);

const defaultsSchema = z.object({
  default_loss_limit_day: optionalAmount('Daily loss limit'),
  max_stake: optionalAmount('Maximum stake'),
});
type DefaultsValues = z.infer<typeof defaultsSchema>;
const FIELDS = ['default_loss_limit_day', 'max_stake'] as const;

/** The form's text for an amount the server holds (null: empty). */
function amountField(amount: number | null): string {
  return amount === null ? '' : (toMinor(amount) / 100).toFixed(2);
}

function formValues(defaults: SaferDefaults): DefaultsValues {
  return { default_loss_limit_day: amountField(defaults.default_loss_limit_day), max_stake: amountField(defaults.max_stake) };
}

/**
 * The operator's safer-gambling defaults, on the Settings screen (admin only): the daily loss
 * limit every new client account starts with, and the most any one bet in the tree may stake.
 * Empty is none. Saved apart from the site settings: its own call, audited on its own.
 */
export function SaferDefaultsCard() {
  const defaults = useQuery({ queryKey: SAFER_DEFAULTS_KEY, queryFn: getSaferDefaults, staleTime: 0 });
  return (
    <PageCard title="Safer gambling defaults" testId="safer-defaults">
      <QueryState isPending={defaults.isPending} error={defaults.error}>
        {defaults.data && <DefaultsForm defaults={defaults.data} />}
      </QueryState>
    </PageCard>
  );
}

function DefaultsForm({ defaults }: { defaults: SaferDefaults }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(defaults);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<DefaultsValues>({
    resolver: zodResolver(defaultsSchema),
    defaultValues: formValues(defaults),
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    const typed = (text: string) => (text === '' ? null : text);
    const input: SaferDefaultsInput = { default_loss_limit_day: typed(values.default_loss_limit_day), max_stake: typed(values.max_stake) };
    const minor = (amount: number | null) => (amount === null ? null : toMinor(amount));
    const same = (key: keyof SaferDefaultsInput) => {
      const text = input[key];
      return (text === null ? null : parseStake(text)) === minor(saved[key]);
    };
    if (same('default_loss_limit_day') && same('max_stake')) {
      setFormError('Nothing has changed.');
      return;
    }
    try {
      const answer = await saveSaferDefaults(input);
      if (!answer.status) return;
      toastSuccess(answer.message);
      setSaved(answer.data);
      reset(formValues(answer.data));
      queryClient.setQueryData(SAFER_DEFAULTS_KEY, answer.data);
    } catch (error) {
      setFormError(applyServerErrors(error, FIELDS, setError));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="safer-defaults-form">
      <p className="muted small">
        Empty is none. A bettor can lower their loss limit at once; raising or removing it waits 24 hours and their
        confirmation. A new default applies to accounts made after it; those made before keep their own limits. The
        maximum stake binds every bet in the tree, under any stake limit of the bettor&apos;s own.
      </p>
      <div className="form-grid">
        <Field label="Daily loss limit every new client account starts with (₹)" error={errors.default_loss_limit_day?.message}>
          <input inputMode="decimal" autoComplete="off" placeholder="none" data-testid="safer-default-loss" {...register('default_loss_limit_day')} />
        </Field>
        <Field label="Maximum stake of any bet in the tree (₹)" error={errors.max_stake?.message}>
          <input inputMode="decimal" autoComplete="off" placeholder="none" data-testid="safer-max-stake" {...register('max_stake')} />
        </Field>
      </div>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <div className="modal-actions">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="safer-defaults-save">
          Save defaults
        </button>
      </div>
    </form>
  );
}
