import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
import { z } from '../../lib/zod';
import { errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, Spinner } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { message } from '../../lib/password';
import { markSecurityEnabled } from '../../lib/session';
import { toastSuccess } from '../../lib/toast';
import { disableSecurity, enableSecurity, getSecurityStatus, setUpSecurity, type SecuritySetup } from './api';

const otp = z.string().trim().regex(/^\d{6}$/, message(() => i18n.t('auth:otp.codeInvalid')));
const enableSchema = z.object({ otp });
const disableSchema = z.object({ otp, password: z.string().min(1, message(() => i18n.t('auth:login.passwordRequired'))) });

const STATUS_KEY = ['security-status'] as const;

/**
 * Security Auth Verification. The server says whether it is on (`user/security/status`):
 * on, the page offers to turn it off (password and a code); off, to set up an authenticator
 * app (TOTP) with a QR code and turn it on with the first code.
 */
export function SecurityAuthPage() {
  const { t } = useTranslation(['settings', 'common', 'auth']);
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: async () => {
      const enabled = await getSecurityStatus();
      if (enabled !== null) markSecurityEnabled(enabled);
      return enabled;
    },
    staleTime: 0,
  });
  // After enabling or disabling, the answer is known without asking again.
  const settle = (enabled: boolean) => {
    markSecurityEnabled(enabled);
    queryClient.setQueryData(STATUS_KEY, enabled);
  };

  let body;
  if (status.error) body = <ErrorMessage>{errorMessage(status.error)}</ErrorMessage>;
  else if (status.isPending || status.data === null) body = <Spinner />;
  else if (status.data) body = <SecurityOn onDisabled={() => settle(false)} />;
  else body = <SecurityOff onEnabled={() => settle(true)} />;

  return (
    <div className="page-stack">
      <PageCard title={t('security.title')} testId="security-auth-page">
        <p>{t('security.intro')}</p>
        {body}
      </PageCard>
    </div>
  );
}

function SecurityOn({ onDisabled }: { onDisabled: () => void }) {
  const { t } = useTranslation(['settings', 'common', 'auth']);
  return (
    <div className="security-state" data-testid="security-on">
      <p className="notice success" data-testid="security-enabled">
        {t('security.on')}
      </p>
      <h2>{t('security.turnOff')}</h2>
      <p className="muted">{t('security.turnOffText')}</p>
      <DisableForm onDisabled={onDisabled} />
    </div>
  );
}

function SecurityOff({ onEnabled }: { onEnabled: () => void }) {
  const { t } = useTranslation(['settings', 'common', 'auth']);
  const [setup, setSetup] = useState<SecuritySetup | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    setSetupError(null);
    try {
      const answer = await setUpSecurity();
      if (answer.status) setSetup(answer.data);
    } catch (error) {
      setSetupError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (!setup) {
    return (
      <div className="security-state" data-testid="security-off">
        <p className="notice" data-testid="security-disabled">
          {t('security.off')}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={busy} data-testid="security-setup">
          {busy ? t('common:preparing') : t('security.setUp')}
        </button>
        {setupError && <ErrorMessage>{setupError}</ErrorMessage>}
      </div>
    );
  }
  return (
    <div className="totp-setup" data-testid="security-off">
      <div className="qr-box" data-testid="security-qr">
        <QRCodeSVG value={setup.otpauth_uri} size={180} marginSize={2} />
      </div>
      <div>
        <ol className="steps">
          <li>{t('security.scan')}</li>
          <li>
            {t('security.typeKey')} <code data-testid="security-secret">{setup.secret}</code>
          </li>
          <li>{t('security.enterCode')}</li>
        </ol>
        <EnableForm onEnabled={onEnabled} />
      </div>
    </div>
  );
}

function EnableForm({ onEnabled }: { onEnabled: () => void }) {
  const { t } = useTranslation(['settings', 'common', 'auth']);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<z.infer<typeof enableSchema>>({
    resolver: zodResolver(enableSchema),
    defaultValues: { otp: '' },
  });
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const answer = await enableSecurity(v.otp);
      if (!answer.status) return;
      toastSuccess(answer.message || t('security.turnedOn'));
      onEnabled();
    } catch (error) {
      setFormError(applyServerErrors(error, ['otp'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={t('auth:otp.code')} error={errors.otp?.message}>
        <input inputMode="numeric" maxLength={6} autoComplete="one-time-code" data-testid="security-otp" {...register('otp')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="security-enable">
        {t('security.enable')}
      </button>
    </form>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const { t } = useTranslation(['settings', 'common', 'auth']);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<z.infer<typeof disableSchema>>({
    resolver: zodResolver(disableSchema),
    defaultValues: { otp: '', password: '' },
  });
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const answer = await disableSecurity(v.otp, v.password);
      if (!answer.status) return;
      toastSuccess(answer.message || t('security.turnedOff'));
      onDisabled();
    } catch (error) {
      setFormError(applyServerErrors(error, ['otp', 'password'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={t('auth:login.password')} error={errors.password?.message}>
        <input type="password" autoComplete="current-password" data-testid="security-disable-password" {...register('password')} />
      </Field>
      <Field label={t('auth:otp.code')} error={errors.otp?.message}>
        <input inputMode="numeric" maxLength={6} autoComplete="one-time-code" data-testid="security-disable-otp" {...register('otp')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn" disabled={isSubmitting} data-testid="security-disable">
        {t('security.disable')}
      </button>
    </form>
  );
}
