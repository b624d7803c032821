// The browser's own check of a round's commitment, mirroring crates/casino/src/fair.rs: the
// commitment is hex(SHA-256(seed bytes)), the seed revealed as exactly 64 hex digits (32
// bytes), and the comparison ignores case and surrounding spaces (`verify`).

export const SEED_BYTES = 32;

/** The bytes of a hex text, or why they are not a seed (as `ServerSeed::from_hex` refuses). */
export function seedBytes(seedHex: string): Uint8Array<ArrayBuffer> | 'not-hex' | 'wrong-length' {
  const text = seedHex.trim();
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return 'not-hex';
  if (text.length !== SEED_BYTES * 2) return 'wrong-length';
  const bytes = new Uint8Array(SEED_BYTES);
  for (let i = 0; i < SEED_BYTES; i += 1) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

export type CommitmentCheck =
  | { kind: 'match'; actual: string }
  | { kind: 'mismatch'; actual: string }
  | { kind: 'bad-seed'; reason: string }
  | { kind: 'unsupported' };

/**
 * Does SHA-256 of the revealed seed's bytes equal the published commitment? `subtle` is the
 * browser's WebCrypto (absent outside a secure context: https or localhost).
 */
export async function checkCommitment(
  seedHex: string,
  commitment: string,
  subtle: SubtleCrypto | null | undefined = globalThis.crypto?.subtle,
): Promise<CommitmentCheck> {
  const bytes = seedBytes(seedHex);
  if (bytes === 'not-hex') return { kind: 'bad-seed', reason: 'The seed is not hexadecimal.' };
  if (bytes === 'wrong-length') return { kind: 'bad-seed', reason: `The seed must be ${SEED_BYTES} bytes (${SEED_BYTES * 2} hex digits).` };
  if (!subtle) return { kind: 'unsupported' };
  const actual = toHex(await subtle.digest('SHA-256', bytes));
  return actual === commitment.trim().toLowerCase() ? { kind: 'match', actual } : { kind: 'mismatch', actual };
}
