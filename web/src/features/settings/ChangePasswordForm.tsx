import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/Field';
import { ErrorMessage } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { changePasswordSchema, PASSWORD_MIN_CHARS, PASSWORD_SYMBOLS, type ChangePasswordValues } from '../../lib/password';
import { markPasswordChanged } from '../../lib/session';
import { toastSuccess } from '../../lib/toast';
import { changePassword } from './api';

const FIELDS = ['master_password', 'new_password', 'confirm_password', 'old_password'] as const;

/** Spec §5: the change-password form; shows its own field errors first and the server's after. */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation('settings');
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { master_password: '', new_password: '', confirm_password: '', old_password: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await changePassword(values);
      if (!answer.status) return;
      toastSuccess(answer.message || t('password.changed'));
      reset();
      markPasswordChanged();
      onDone?.();
    } catch (error) {
      setFormError(applyServerErrors(error, FIELDS, setError));
    }
  });

  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate data-testid="change-password-form">
      <Field label={t('password.current')} error={errors.master_password?.message}>
        <input type="password" autoComplete="current-password" data-testid="cp-master-password" {...register('master_password')} />
      </Field>
      <Field label={t('password.new')} error={errors.new_password?.message}>
        <input type="password" autoComplete="new-password" data-testid="cp-new-password" {...register('new_password')} />
      </Field>
      <Field label={t('password.confirm')} error={errors.confirm_password?.message}>
        <input type="password" autoComplete="new-password" data-testid="cp-confirm-password" {...register('confirm_password')} />
      </Field>
      <p className="muted small">{t('password.hint', { n: PASSWORD_MIN_CHARS, symbols: PASSWORD_SYMBOLS })}</p>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="cp-submit">
        {isSubmitting ? t('saving') : t('password.title')}
      </button>
    </form>
  );
}
