// @ts-check
// RFC 6238 codes (SHA-1, 30 s steps, 6 digits), what an authenticator app shows, so the
// journeys can type the code for a secret the server handed out.
import { createHmac } from 'node:crypto';

export const STEP_MS = 30_000;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (padding and spaces ignored, any case) to bytes. @param {string} text */
export function base32Decode(text) {
  const bytes = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text.toUpperCase().replace(/[\s=]/g, '')) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${JSON.stringify(char)}`);
    buffer = ((buffer << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** The step a moment falls in. */
export function stepAt(ms = Date.now()) {
  return Math.floor(ms / STEP_MS);
}

/** The 6-digit code of a step. @param {Buffer} key @param {number} step */
export function totp(key, step) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

/**
 * The code of the first step after `lastStep` (the server refuses a step not later than the
 * last one it accepted), and that step. The server accepts one step either side of its own,
 * so this waits only until the step is at most one ahead of the clock.
 * @param {Buffer} key @param {number} lastStep
 */
export async function nextCode(key, lastStep) {
  const step = Math.max(lastStep + 1, stepAt());
  const wait = (step - 1) * STEP_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 200));
  return { step, code: totp(key, step) };
}

/**
 * The step to start a run of codes from: the one before the clock's, which the server still
 * accepts (one step either side of its own), so the two after it are usable at once rather
 * than after the clock reaches them. Near the end of a step the one before would leave the
 * server's window before the code arrives, so then this first waits for the next step.
 * @param {number} marginMs how long the first code must stay usable (the journey types it
 * again at the next log-in, to see it refused as used)
 */
export async function firstStep(marginMs = 15_000) {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
  return stepAt() - 1;
}
