import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();
const TAG_LABEL = encoder.encode('zeroid/noisy/tag/v1');
const PAD_LABEL = encoder.encode('zeroid/noisy/pad/v1');
/** Bytes of a locker's tag: its bucket, its fingerprint and the duplicate check. */
export const TAG_BYTES = 8;
/** Bytes of the secret every locker of a person seals: 128 bits, the identity's whole entropy. */
export const SEED_BYTES = 16;

/** One locker as the server stores it: a tag and a sealed seed, both functions of an OPRF output. */
export interface Locker {
  tag: Uint8Array;
  seal: Uint8Array;
}

/** The tag of a locker's OPRF output: SHA-256(TAG_LABEL ‖ y), first TAG_BYTES. */
export const lockerTag = (output: Uint8Array) => sha256(concatBytes(TAG_LABEL, output)).subarray(0, TAG_BYTES);
/** The one-time pad of a locker's OPRF output: SHA-256(PAD_LABEL ‖ y), first SEED_BYTES. */
export const lockerPad = (output: Uint8Array) => sha256(concatBytes(PAD_LABEL, output)).subarray(0, SEED_BYTES);

/** XOR of two equal-length byte strings. */
export function xorBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  return a.map((byte, i) => byte ^ b[i]!);
}

/**
 * Locks a person's seed in every locker (sample-then-lock, Canetti et al.; "Fuzzy Extractors are
 * Practical", ePrint 2024/100): locker j holds tag(y_j) and seed ⊕ pad(y_j), y_j the OPRF output of the
 * bits locker j samples. Both are hashes of an OPRF output, so a stolen table tests no guess without the
 * OPRF key: it holds no template, and without the key not even a comparison of two templates. A masked
 * locker holds random bytes of the same size, so the table does not show the person's mask. Any one
 * locker whose sampled bits a later reading repeats exactly gives the seed back.
 */
export function lockLockers(
  outputs: (Uint8Array | undefined)[],
  seed: Uint8Array,
  rng: (length: number) => Uint8Array = randomBytes,
): Locker[] {
  if (seed.length !== SEED_BYTES) throw new RangeError(`A seed is ${SEED_BYTES} bytes`);
  return outputs.map((output) =>
    output ? { tag: lockerTag(output), seal: xorBytes(seed, lockerPad(output)) } : { tag: rng(TAG_BYTES), seal: rng(SEED_BYTES) },
  );
}
