// One stake button's rule, as the server checks it (crates/server/src/stake_buttons.rs): for a
// user's own buttons (Set Button Value) and the operator's defaults (the console's Settings).
import { z } from './zod';

export const MAX_BUTTONS_PER_TYPE = 20;
export const BUTTON_NAME_MAX_CHARS = 10;
export const BUTTON_VALUE_MAX = 100_000_000;

/** A label and a stake as typed: the stake stays text until it is sent. */
export const stakeButtonSchema = z.object({
  button_name: z.string().trim().min(1, 'Label is required.').max(BUTTON_NAME_MAX_CHARS, `Label must be at most ${BUTTON_NAME_MAX_CHARS} characters.`),
  button_value: z
    .string()
    .trim()
    .min(1, 'Value is required.')
    .regex(/^\d+(\.\d{1,2})?$/, 'Value must be a number with at most 2 decimals.')
    .refine((v) => Number(v) > 0, 'Value must be more than 0.')
    .refine((v) => Number(v) <= BUTTON_VALUE_MAX, `Value must be at most ${BUTTON_VALUE_MAX}.`),
});
