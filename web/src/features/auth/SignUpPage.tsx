import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from '../../lib/zod';
import { Field } from '../../components/Field';
import { ErrorMessage } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { passwordSchema, PASSWORD_MESSAGES } from '../../lib/password';
import { saveLogin } from '../../lib/session';
import { LOCAL_KEYS } from '../../lib/storage';
import { isOtpChallenge, signup } from './api';
import { AuthFrame } from './AuthFrame';
import { COUNTRIES, countryByCode, DEFAULT_COUNTRY_CODE } from './countries';
import { lookUpCountryCode } from './geolocation';
import { mobileProblem } from './phone';

const signupSchema = z
  .object({
    user_name: z
      .string()
      .trim()
      .min(1, 'User name is required.')
      .min(3, 'User name must be 3 to 20 characters.')
      .max(20, 'User name must be 3 to 20 characters.')
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'User name must start with a letter and contain only letters, digits and _.'),
    password: passwordSchema('Password is required.'),
    confirm_password: z.string().min(1, PASSWORD_MESSAGES.confirmRequired),
    country: z.string().min(2, 'Choose a country.'),
    mobile: z.string().trim().regex(/^\d{6,15}$/, 'Mobile number must be 6 to 15 digits.'),
  })
  .superRefine((v, ctx) => {
    // The number's length and prefix for the chosen country, once it is plausible at all.
    if (!/^\d{6,15}$/.test(v.mobile.trim())) return;
    const problem = mobileProblem(v.country, v.mobile);
    if (problem) ctx.addIssue({ code: 'custom', path: ['mobile'], message: problem });
  })
  .refine((v) => v.confirm_password === '' || v.confirm_password === v.password, {
    path: ['confirm_password'],
    message: 'Password and confirm password must be matching.',
  });
type SignupValues = z.infer<typeof signupSchema>;

export function SignUpPage() {
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
    <AuthFrame title="Sign Up">
      <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate data-testid="signup-form">
        <Field label="Username" error={errors.user_name?.message}>
          <input autoComplete="username" placeholder="Username" data-testid="signup-user-name" {...register('user_name')} />
        </Field>
        <Field label="Mobile number" error={errors.country?.message ?? errors.mobile?.message}>
          <span className="phone-input">
            <select aria-label="Country dial code" data-testid="signup-country" {...register('country')}>
              {COUNTRIES.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.flag} {c.name} ({c.dial_code})
                </option>
              ))}
            </select>
            <input inputMode="numeric" autoComplete="tel-national" placeholder="Mobile number" data-testid="signup-mobile" {...register('mobile')} />
          </span>
        </Field>
        <Field label="Password" error={errors.password?.message}>
          <input type="password" autoComplete="new-password" placeholder="Password" data-testid="signup-password" {...register('password')} />
        </Field>
        <Field label="Confirm password" error={errors.confirm_password?.message}>
          <input
            type="password"
            autoComplete="new-password"
            placeholder="Confirm password"
            data-testid="signup-confirm-password"
            {...register('confirm_password')}
          />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting} data-testid="signup-submit">
          {isSubmitting ? 'Creating account…' : 'Sign Up'}
        </button>
        <p className="auth-switch">
          Already have an account? <Link to="/login">Login</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
