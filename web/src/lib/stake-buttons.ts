// One stake button's rule, as the server checks it (crates/server/src/stake_buttons.rs): for a
// user's own buttons (Set Button Value) and the operator's defaults (the console's Settings).
import { i18n } from '../i18n';
import { message } from './password';
import { z } from './zod';

export const MAX_BUTTONS_PER_TYPE = 20;
export const BUTTON_NAME_MAX_CHARS = 10;
export const BUTTON_VALUE_MAX = 100_000_000;

/** A label and a stake as typed: the stake stays text until it is sent. */
export const stakeButtonSchema = z.object({
  button_name: z
    .string()
    .trim()
    .min(1, message(() => i18n.t('common:stakeButton.labelRequired')))
    .max(BUTTON_NAME_MAX_CHARS, message(() => i18n.t('common:stakeButton.labelMax', { n: BUTTON_NAME_MAX_CHARS }))),
  button_value: z
    .string()
    .trim()
    .min(1, message(() => i18n.t('common:stakeButton.valueRequired')))
    .regex(/^\d+(\.\d{1,2})?$/, message(() => i18n.t('common:stakeButton.valueNumber')))
    .refine((v) => Number(v) > 0, message(() => i18n.t('common:stakeButton.valuePositive')))
    .refine((v) => Number(v) <= BUTTON_VALUE_MAX, message(() => i18n.t('common:stakeButton.valueMax', { max: BUTTON_VALUE_MAX }))),
});
