import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '../../lib/zod';
import { errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, Spinner } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { markSecurityEnabled } from '../../lib/session';
import { toastSuccess } from '../../lib/toast';
import { disableSecurity, enableSecurity, getSecurityStatus, setUpSecurity, type SecuritySetup } from './api';

const otp = z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.');
const enableSchema = z.object({ otp });
const disableSchema = z.object({ otp, password: z.string().min(1, 'Password is required.') });

const STATUS_KEY = ['security-status'] as const;

/**
 * Security Auth Verification. The server says whether it is on (`user/security/status`):
 * on, the page offers to turn it off (password and a code); off, to set up an authenticator
 * app (TOTP) with a QR code and turn it on with the first code.
 */
export function SecurityAuthPage() {
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
      <PageCard title="Security Auth Verification" testId="security-auth-page">
        <p>
          Security auth asks for a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator,
          Authy…) each time you log in, so a stolen password alone cannot open your account.
        </p>
        {body}
      </PageCard>
    </div>
  );
}

function SecurityOn({ onDisabled }: { onDisabled: () => void }) {
  return (
    <div className="security-state" data-testid="security-on">
      <p className="notice success" data-testid="security-enabled">
        Security auth is on. Each log-in asks for a code from your authenticator app.
      </p>
      <h2>Turn security auth off</h2>
      <p className="muted">Enter your password and a current code from the app.</p>
      <DisableForm onDisabled={onDisabled} />
    </div>
  );
}

function SecurityOff({ onEnabled }: { onEnabled: () => void }) {
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
          Security auth is off: log-in asks only for your password.
        </p>
        <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={busy} data-testid="security-setup">
          {busy ? 'Preparing…' : 'Set up security auth'}
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
          <li>Scan the QR code with your authenticator app.</li>
          <li>
            Or type this key: <code data-testid="security-secret">{setup.secret}</code>
          </li>
          <li>Enter the code the app shows to turn security auth on.</li>
        </ol>
        <EnableForm onEnabled={onEnabled} />
      </div>
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
      setFormError(applyServerErrors(error, ['otp'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
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

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
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
      toastSuccess(answer.message || 'Security auth is off.');
      onDisabled();
    } catch (error) {
      setFormError(applyServerErrors(error, ['otp', 'password'], setError));
    }
  });
  return (
    <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label="Password" error={errors.password?.message}>
        <input type="password" autoComplete="current-password" data-testid="security-disable-password" {...register('password')} />
      </Field>
      <Field label="Code" error={errors.otp?.message}>
        <input inputMode="numeric" maxLength={6} autoComplete="one-time-code" data-testid="security-disable-otp" {...register('otp')} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn" disabled={isSubmitting} data-testid="security-disable">
        Disable
      </button>
    </form>
  );
}
