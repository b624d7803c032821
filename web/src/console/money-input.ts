// Amounts typed into the console's forms: checked as text and sent as the same text, so a
// rupee amount never passes through a float on its way to the server.
import { z } from '../lib/zod';

const AMOUNT_TEXT = /^\d{1,10}(\.\d{1,2})?$/;

/** A required amount above zero with at most 2 decimals, kept as its text. */
export const amountText = (label = 'Amount') =>
  z
    .string()
    .trim()
    .min(1, `${label} is required.`)
    .regex(AMOUNT_TEXT, `${label} must be a number with at most 2 decimals, e.g. 1500 or 99.50.`)
    .refine((text) => /[1-9]/.test(text), `${label} must be more than 0.`);
