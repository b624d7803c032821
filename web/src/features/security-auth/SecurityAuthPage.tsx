import { zodResolver } from '@hookform/resolvers/zod';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage, isMissingEndpoint } from '../../api/client';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { toastSuccess } from '../../lib/toast';
import { disableSecurity, enableSecurity, setUpSecurity, type SecuritySetup } from './api';

const otp = z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.');
const enableSchema = z.object({ otp });
const disableSchema = z.object({ otp, password: z.string().min(1, 'Password is required.') });

function explain(error: unknown): string {
  return isMissingEndpoint(error) ? 'Security auth is not available yet. Please check back later.' : errorMessage(error);
}

/** Security Auth Verification: set up an authenticator app (TOTP) with a QR code, then enable it. */
export function SecurityAuthPage() {
  const [setup, setSetup] = useState<SecuritySetup | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [enabled, setEnabled] = useState(false);

  const start = async () => {
    setBusy(true);
    setSetupError(null);
    try {
      const answer = await setUpSecurity();
      if (answer.status) setSetup(answer.data);
    } catch (error) {
      setSetupError(explain(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page-stack">
      <PageCard title="Security Auth Verification" testId="security-auth-page">
        <p>
          Security auth asks for a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator,
          Authy…) each time you log in, so a stolen password alone cannot open your account.
        </p>
        {enabled ? (
          <p className="notice success" data-testid="security-enabled">Security auth is on. Your next log-in will ask for a code.</p>
        ) : !setup ? (
          <>
            <button type="button" className="btn btn-primary" onClick={start} disabled={busy} data-testid="security-setup">
              {busy ? 'Preparing…' : 'Set up security auth'}
            </button>
            {setupError && <ErrorMessage>{setupError}</ErrorMessage>}
          </>
        ) : (
          <div className="totp-setup">
            <div className="qr-box" data-testid="security-qr">
              <QRCodeSVG value={setup.otpauth_uri} size={180} marginSize={2} />
            </div>
            <div>
              <ol className="steps">
                <li>Scan the QR code with your authenticator app.</li>
                <li>
                  Or type this key: <code data-testid="security-secret">{setup.secret}</code>
                </li>
                <li>Enter the code the app shows to turn security auth on.</li>
              </ol>
              <EnableForm onEnabled={() => setEnabled(true)} />
            </div>
          </div>
        )}
      </PageCard>
      <PageCard title="Turn security auth off">
        <DisableForm />
      </PageCard>
    </div>
  );
}

function EnableForm({ onEnabled }: { onEnabled: () => void }) {
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
      toastSuccess(answer.message || 'Security auth is on.');
      onEnabled();
    } catch (error) {
      setFormError(isMissingEndpoint(error) ? explain(error) : applyServerErrors(error, ['otp'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={submit} noValidate>
      <Field label="Code" error={errors.otp?.message}>
        <input inputMode="numeric" maxLength={6} autoComplete="one-time-code" data-testid="security-otp" {...register('otp')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="security-enable">
        Enable
      </button>
    </form>
  );
}

function DisableForm() {
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<z.infer<typeof disableSchema>>({
    resolver: zodResolver(disableSchema),
    defaultValues: { otp: '', password: '' },
  });
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const answer = await disableSecurity(v.otp, v.password);
      if (!answer.status) return;
      toastSuccess(answer.message || 'Security auth is off.');
      reset();
    } catch (error) {
      setFormError(isMissingEndpoint(error) ? explain(error) : applyServerErrors(error, ['otp', 'password'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={submit} noValidate>
      <Field label="Code" error={errors.otp?.message}>
        <input inputMode="numeric" maxLength={6} autoComplete="one-time-code" {...register('otp')} />
      </Field>
      <Field label="Password" error={errors.password?.message}>
        <input type="password" autoComplete="current-password" {...register('password')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn" disabled={isSubmitting}>
        Disable
      </button>
    </form>
  );
}
