import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
import { Link, useNavigate } from 'react-router';
import { z } from '../../lib/zod';
import { Field } from '../../components/Field';
import { ErrorMessage } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { message, passwordSchema, PASSWORD_MESSAGES } from '../../lib/password';
import { saveLogin } from '../../lib/session';
import { LOCAL_KEYS } from '../../lib/storage';
import { isOtpChallenge, signup } from './api';
import { AuthFrame } from './AuthFrame';
import { COUNTRIES, countryByCode, countryName, DEFAULT_COUNTRY_CODE } from './countries';
import { lookUpCountryCode } from './geolocation';
import { mobileProblem } from './phone';

const signupSchema = z
  .object({
    user_name: z
      .string()
      .trim()
      .min(1, message(() => i18n.t('auth:login.userNameRequired')))
      .min(3, message(() => i18n.t('auth:signUp.userNameLength')))
      .max(20, message(() => i18n.t('auth:signUp.userNameLength')))
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, message(() => i18n.t('auth:signUp.userNameChars'))),
    password: passwordSchema(() => i18n.t('auth:login.passwordRequired')),
    confirm_password: z.string().min(1, message(() => PASSWORD_MESSAGES.confirmRequired)),
    country: z.string().min(2, message(() => i18n.t('auth:signUp.chooseCountry'))),
    mobile: z.string().trim().regex(/^\d{6,15}$/, message(() => i18n.t('auth:signUp.mobileLengthAny'))),
  })
  .superRefine((v, ctx) => {
    // The number's length and prefix for the chosen country, once it is plausible at all.
    if (!/^\d{6,15}$/.test(v.mobile.trim())) return;
    const problem = mobileProblem(v.country, v.mobile);
    if (problem) ctx.addIssue({ code: 'custom', path: ['mobile'], message: problem });
  })
  .refine((v) => v.confirm_password === '' || v.confirm_password === v.password, {
    path: ['confirm_password'],
    error: () => i18n.t('auth:signUp.matching'),
  });
type SignupValues = z.infer<typeof signupSchema>;

export function SignUpPage() {
  const { t, i18n: shown } = useTranslation('auth');
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<SignupValues>({
    resolver: zodResolver(signupSchema),
    defaultValues: { user_name: '', password: '', confirm_password: '', country: DEFAULT_COUNTRY_CODE, mobile: '' },
  });

  // The default country from the visitor's IP, unless they already chose one.
  useEffect(() => {
    let current = true;
    void lookUpCountryCode().then((code) => {
      if (current && code && countryByCode(code) && !getFieldState('country').isDirty) setValue('country', code);
    });
    return () => {
      current = false;
    };
  }, [getFieldState, setValue]);

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    const country = countryByCode(values.country);
    try {
      const answer = await signup({
        user_name: values.user_name,
        password: values.password,
        confirm_password: values.confirm_password,
        dial_code: country?.dial_code ?? '+91',
        mobile: values.mobile,
      });
      if (!answer.status) return;
      if (isOtpChallenge(answer.data)) {
        localStorage.setItem(LOCAL_KEYS.otpVerify, answer.data.otp_token);
        void navigate('/login');
        return;
      }
      saveLogin(answer.data);
      void navigate('/', { replace: true });
    } catch (error) {
      const message = applyServerErrors(error, ['user_name', 'password', 'confirm_password', 'mobile'], setError);
      const dial = error && typeof error === 'object' && 'fieldErrors' in error ? (error as { fieldErrors: Record<string, string> }).fieldErrors.dial_code : undefined;
      if (dial) setError('country', { type: 'server', message: dial });
      setFormError(dial && message === dial ? null : message);
    }
  });

  return (
    <AuthFrame title={t('signUp.title')}>
      <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate data-testid="signup-form">
        <Field label={t('login.userName')} error={errors.user_name?.message}>
          <input autoComplete="username" placeholder={t('login.userName')} data-testid="signup-user-name" {...register('user_name')} />
        </Field>
        <Field label={t('signUp.mobile')} error={errors.country?.message ?? errors.mobile?.message}>
          <span className="phone-input">
            <select aria-label={t('signUp.dialCode')} data-testid="signup-country" {...register('country')}>
              {COUNTRIES.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.flag} {countryName(c, shown.language)} ({c.dial_code})
                </option>
              ))}
            </select>
            <input inputMode="numeric" autoComplete="tel-national" placeholder={t('signUp.mobile')} data-testid="signup-mobile" {...register('mobile')} />
          </span>
        </Field>
        <Field label={t('login.password')} error={errors.password?.message}>
          <input type="password" autoComplete="new-password" placeholder={t('login.password')} data-testid="signup-password" {...register('password')} />
        </Field>
        <Field label={t('signUp.confirmPassword')} error={errors.confirm_password?.message}>
          <input
            type="password"
            autoComplete="new-password"
            placeholder={t('signUp.confirmPassword')}
            data-testid="signup-confirm-password"
            {...register('confirm_password')}
          />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting} data-testid="signup-submit">
          {isSubmitting ? t('signUp.submitting') : t('signUp.submit')}
        </button>
        <p className="auth-switch">
          {t('signUp.haveAccount')} <Link to="/login">{t('login.title')}</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
