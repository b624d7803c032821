import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
import { Link, useNavigate } from 'react-router';
import { ErrorMessage } from '../../components/QueryState';
import { Field } from '../../components/Field';
import { applyServerErrors } from '../../lib/forms';
import { CHANGE_PASSWORD_PATH, landingPath, mustChangePassword, saveLogin, useFarewell, type UserInfo } from '../../lib/session';
import { LOCAL_KEYS } from '../../lib/storage';
import { isOtpChallenge, login, verifyOtp } from './api';
import { AuthFrame } from './AuthFrame';

// The first page a visitor loads: its two small forms use react-hook-form's own rules, which
// keeps the schema library (about 28 KB gzipped) out of the first page's JavaScript.
interface LoginValues {
  user_name: string;
  password: string;
}
// The messages are made when a field is checked, in the language of that moment.
const LOGIN_RULES = {
  user_name: { validate: (v: string) => v.trim().length > 0 || i18n.t('auth:login.userNameRequired') },
  password: { validate: (v: string) => v.length > 0 || i18n.t('auth:login.passwordRequired') },
} as const;

interface OtpValues {
  otp: string;
}
const OTP_RULES = {
  validate: (v: string) => /^\d{6}$/.test(v.trim()) || i18n.t('auth:otp.codeInvalid'),
} as const;

/** After a log-in: the forced password change first, else home or, for an admin or agent, the console. */
function useFinishLogin() {
  const navigate = useNavigate();
  return (user: UserInfo) => {
    saveLogin(user);
    void navigate(mustChangePassword(user) ? CHANGE_PASSWORD_PATH : landingPath(user), { replace: true });
  };
}

export function LoginPage() {
  const { t } = useTranslation('auth');
  const [otpToken, setOtpToken] = useState<string | null>(() => localStorage.getItem(LOCAL_KEYS.otpVerify));
  // Why the app ended the last session (a time-out taken, the session limit reached), if it did.
  const farewell = useFarewell();
  return (
    <AuthFrame title={otpToken ? t('otp.title') : t('login.title')}>
      {farewell && (
        <p className="notice auth-farewell" role="status" data-testid="farewell">
          {farewell}
        </p>
      )}
      {otpToken ? (
        <OtpForm
          otpToken={otpToken}
          onCancel={() => {
            localStorage.removeItem(LOCAL_KEYS.otpVerify);
            setOtpToken(null);
          }}
        />
      ) : (
        <LoginForm onOtp={(token) => {
          localStorage.setItem(LOCAL_KEYS.otpVerify, token);
          setOtpToken(token);
        }} />
      )}
    </AuthFrame>
  );
}

function LoginForm({ onOtp }: { onOtp: (otpToken: string) => void }) {
  const { t } = useTranslation('auth');
  const finish = useFinishLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ defaultValues: { user_name: '', password: '' } });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await login(values.user_name.trim(), values.password);
      if (!answer) return;
      if (isOtpChallenge(answer)) onOtp(answer.otp_token);
      else finish(answer);
    } catch (error) {
      setFormError(applyServerErrors(error, ['user_name', 'password'], setError));
    }
  });

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={t('login.userName')} error={errors.user_name?.message}>
        <input autoComplete="username" placeholder={t('login.userName')} data-testid="login-user-name" {...register('user_name', LOGIN_RULES.user_name)} />
      </Field>
      <Field label={t('login.password')} error={errors.password?.message}>
        <input
          type="password"
          autoComplete="current-password"
          placeholder={t('login.password')}
          data-testid="login-password"
          {...register('password', LOGIN_RULES.password)}
        />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting} data-testid="login-submit">
        {isSubmitting ? t('login.submitting') : t('login.submit')}
      </button>
      <p className="auth-switch">
        {t('login.newHere')} <Link to="/sign-up" data-testid="to-sign-up">{t('login.createAccount')}</Link>
      </p>
    </form>
  );
}

function OtpForm({ otpToken, onCancel }: { otpToken: string; onCancel: () => void }) {
  const { t } = useTranslation('auth');
  const finish = useFinishLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OtpValues>({ defaultValues: { otp: '' } });

  const submit = handleSubmit(async ({ otp }) => {
    setFormError(null);
    try {
      const user = await verifyOtp(otpToken, otp.trim());
      if (user) finish(user);
    } catch (error) {
      setFormError(applyServerErrors(error, ['otp'], setError));
    }
  });

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
      <p className="muted">{t('otp.text')}</p>
      <Field label={t('otp.code')} error={errors.otp?.message}>
        <input inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid="otp-code" {...register('otp', OTP_RULES)} />
      </Field>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting} data-testid="otp-submit">
        {t('otp.verify')}
      </button>
      <button type="button" className="btn btn-link" onClick={onCancel}>
        {t('otp.back')}
      </button>
    </form>
  );
}
