// Password rules of spec §5, shared by the change-password and sign-up forms.
import { z } from './zod';

export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 64;
export const PASSWORD_SYMBOLS = '@$!%*#?&';

export const PASSWORD_MESSAGES = {
  required: 'New password is required.',
  min: `Password must be at least ${PASSWORD_MIN_CHARS} characters.`,
  max: `Password must be at most ${PASSWORD_MAX_CHARS} characters.`,
  chars: `Password may contain only letters, digits and the symbols ${PASSWORD_SYMBOLS}.`,
  letterAndDigit: 'Password must contain at least one letter and one digit.',
  confirmRequired: 'Confirm password is required.',
  matching: 'New password and confirm password must be matching.',
  masterRequired: 'Current password is required.',
} as const;

/** A new password: at least 8, only letters, digits and @$!%*#?&, at least one letter and one digit. */
export const passwordSchema = (requiredMessage: string) =>
  z
    .string()
    .min(1, requiredMessage)
    .min(PASSWORD_MIN_CHARS, PASSWORD_MESSAGES.min)
    .max(PASSWORD_MAX_CHARS, PASSWORD_MESSAGES.max)
    .regex(/^[A-Za-z\d@$!%*#?&]+$/, PASSWORD_MESSAGES.chars)
    .regex(/^(?=.*[A-Za-z])(?=.*\d)/, PASSWORD_MESSAGES.letterAndDigit);

export const newPasswordSchema = passwordSchema(PASSWORD_MESSAGES.required);

/** The change-password form (spec §5). */
export const changePasswordSchema = z
  .object({
    master_password: z.string().min(1, PASSWORD_MESSAGES.masterRequired),
    new_password: newPasswordSchema,
    confirm_password: z.string().min(1, PASSWORD_MESSAGES.confirmRequired),
    old_password: z.string().optional(),
  })
  .refine((v) => v.confirm_password === '' || v.confirm_password === v.new_password, {
    path: ['confirm_password'],
    message: PASSWORD_MESSAGES.matching,
  });

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
