// Password rules of spec §5, shared by the change-password and sign-up forms.
import { i18n } from '../i18n';
import { z } from './zod';

export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 64;
export const PASSWORD_SYMBOLS = '@$!%*#?&';

// Each message is read when a form checks (zod calls an `error` function then), so it is in the
// language of that moment, not the one the module loaded in: the getters translate on each read.
export const PASSWORD_MESSAGES = {
  get required() {
    return i18n.t('common:password.required');
  },
  get min() {
    return i18n.t('common:password.min', { n: PASSWORD_MIN_CHARS });
  },
  get max() {
    return i18n.t('common:password.max', { n: PASSWORD_MAX_CHARS });
  },
  get chars() {
    return i18n.t('common:password.chars', { symbols: PASSWORD_SYMBOLS });
  },
  get letterAndDigit() {
    return i18n.t('common:password.letterAndDigit');
  },
  get confirmRequired() {
    return i18n.t('common:password.confirmRequired');
  },
  get matching() {
    return i18n.t('common:password.matching');
  },
  get masterRequired() {
    return i18n.t('common:password.masterRequired');
  },
};

/** A zod message made when the issue is reported: `text` is a fixed text or a function giving it in the language of the moment. */
export const message = (text: string | (() => string)) => ({ error: typeof text === 'string' ? text : () => text() });

/** A new password: at least 8, only letters, digits and @$!%*#?&, at least one letter and one digit. */
export const passwordSchema = (requiredMessage: string | (() => string)) =>
  z
    .string()
    .min(1, message(requiredMessage))
    .min(PASSWORD_MIN_CHARS, message(() => PASSWORD_MESSAGES.min))
    .max(PASSWORD_MAX_CHARS, message(() => PASSWORD_MESSAGES.max))
    .regex(/^[A-Za-z\d@$!%*#?&]+$/, message(() => PASSWORD_MESSAGES.chars))
    .regex(/^(?=.*[A-Za-z])(?=.*\d)/, message(() => PASSWORD_MESSAGES.letterAndDigit));

export const newPasswordSchema = passwordSchema(() => PASSWORD_MESSAGES.required);

/** The change-password form (spec §5). */
export const changePasswordSchema = z
  .object({
    master_password: z.string().min(1, message(() => PASSWORD_MESSAGES.masterRequired)),
    new_password: newPasswordSchema,
    confirm_password: z.string().min(1, message(() => PASSWORD_MESSAGES.confirmRequired)),
    old_password: z.string().optional(),
  })
  .refine((v) => v.confirm_password === '' || v.confirm_password === v.new_password, {
    path: ['confirm_password'],
    error: () => PASSWORD_MESSAGES.matching,
  });

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
