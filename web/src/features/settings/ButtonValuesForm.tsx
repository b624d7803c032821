import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { stakeButtonSchema } from '../../lib/stake-buttons';
import { z } from '../../lib/zod';
import { BUTTON_VALUES_KEY } from '../../api/button-values';
import { ApiError, errorMessage } from '../../api/client';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { toastError, toastSuccess } from '../../lib/toast';
import { getButtonValues, setButtonValues, type ButtonType, type ButtonValue } from './api';

const TABS = [
  { type: 'Game', labelKey: 'buttons.game' },
  { type: 'Casino', labelKey: 'buttons.casino' },
] as const satisfies readonly { type: ButtonType; labelKey: string }[];

const buttonSchema = stakeButtonSchema.extend({ type: z.enum(['Game', 'Casino']) });
const formSchema = z.object({ buttons: z.array(buttonSchema) });
type FormValues = z.infer<typeof formSchema>;

/**
 * Set Button Value (spec §2): tabs Game Buttons and Casino Buttons, a label and a value per
 * button, Update saves both lists, toasts the server's message and closes.
 */
export function ButtonValuesForm({ onSaved }: { onSaved?: () => void }) {
  const query = useQuery({ queryKey: BUTTON_VALUES_KEY, queryFn: getButtonValues, staleTime: 0 });
  return (
    <QueryState isPending={query.isPending} error={query.error}>
      {query.data && <Editor initial={query.data} onSaved={onSaved} />}
    </QueryState>
  );
}

function Editor({ initial, onSaved }: { initial: ButtonValue[]; onSaved?: () => void }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<ButtonType>('Game');
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { buttons: initial.map((b) => ({ button_name: b.button_name, button_value: String(b.button_value), type: b.type })) },
  });
  const { fields } = useFieldArray({ control, name: 'buttons' });

  const submit = handleSubmit(
    async ({ buttons }) => {
      setFormError(null);
      const payload: ButtonValue[] = buttons.map((b) => ({ button_name: b.button_name.trim(), button_value: Number(b.button_value), type: b.type }));
      try {
        const answer = await setButtonValues(payload);
        if (!answer.status) return;
        toastSuccess(answer.message || t('buttons.saved'));
        await queryClient.invalidateQueries({ queryKey: BUTTON_VALUES_KEY });
        onSaved?.();
      } catch (error) {
        // Field errors come keyed "[index].field".
        const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
        let placed = false;
        for (const [key, message] of Object.entries(fieldErrors)) {
          const m = /^\[(\d+)\]\.(button_name|button_value)$/.exec(key);
          if (m) {
            setError(`buttons.${Number(m[1])}.${m[2] as 'button_name' | 'button_value'}`, { type: 'server', message });
            placed = true;
          }
        }
        const message = errorMessage(error);
        toastError(message);
        if (!placed) setFormError(message);
      }
    },
    (invalid) => {
      // Show the tab holding the first error.
      const index = invalid.buttons?.findIndex?.((e) => e) ?? -1;
      if (index >= 0) setTab(fields[index].type);
    },
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="button-values-form">
      <div className="tabs" role="tablist">
        {TABS.map((item) => (
          <button
            key={item.type}
            type="button"
            role="tab"
            aria-selected={tab === item.type}
            className={tab === item.type ? 'active' : undefined}
            onClick={() => setTab(item.type)}
            data-testid={`button-tab-${item.type.toLowerCase()}`}
          >
            {t(item.labelKey)}
          </button>
        ))}
      </div>
      <div className="button-values-grid">
        <div className="button-values-head" aria-hidden="true">
          <span>{t('buttons.labelHeading')}</span>
          <span>{t('buttons.valueHeading')}</span>
        </div>
        {fields.map((field, index) =>
          field.type !== tab ? null : (
            <div className="button-value-row" key={field.id} data-testid="button-value-row">
              <span className="cell">
                <input aria-label={t('buttons.label', { n: index + 1 })} maxLength={10} data-testid="button-label" {...register(`buttons.${index}.button_name`)} />
                {errors.buttons?.[index]?.button_name && <span className="field-error">{errors.buttons[index]?.button_name?.message}</span>}
              </span>
              <span className="cell">
                <input aria-label={t('buttons.value', { n: index + 1 })} inputMode="decimal" data-testid="button-value" {...register(`buttons.${index}.button_value`)} />
                {errors.buttons?.[index]?.button_value && <span className="field-error">{errors.buttons[index]?.button_value?.message}</span>}
              </span>
            </div>
          ),
        )}
      </div>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <div className="modal-actions">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="button-values-update">
          {isSubmitting ? t('saving') : t('buttons.update')}
        </button>
      </div>
    </form>
  );
}
