import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, randomBytes } from '@noble/hashes/utils.js';
import { nobleLockerArithmetic, type LockerArithmetic } from './locker-arithmetic.ts';

const encoder = new TextEncoder();
/** RFC 9497 §3.1: "OPRFV1-" ‖ I2OSP(mode = OPRF, 1) ‖ "-" ‖ "ristretto255-SHA512". */
const CONTEXT = concatBytes(encoder.encode('OPRFV1-'), new Uint8Array([0x00]), encoder.encode('-ristretto255-SHA512'));
const HASH_TO_GROUP_DST = concatBytes(encoder.encode('HashToGroup-'), CONTEXT);
const FINALIZE = encoder.encode('Finalize');
const u16 = (n: number) => new Uint8Array([n >> 8, n & 0xff]);

/** RFC 9497 HashToGroup's uniform bytes for a locker's input: expand_message_xmd(SHA-512) to 64 bytes. */
export const lockerUniformBytes = (input: Uint8Array) => expand_message_xmd(input, HASH_TO_GROUP_DST, 64, sha512);

/** RFC 9497 Finalize of an input and its unblinded element k·H(input): the locker's 64-byte output. */
export const finalizeLocker = (input: Uint8Array, element: Uint8Array) =>
  sha512(concatBytes(u16(input.length), input, u16(element.length), element, FINALIZE));

/** One verification's OPRF batch, as the client keeps it: its inputs (undefined for a masked locker), blinds and blinded elements. */
export interface LockerBatch {
  inputs: (Uint8Array | undefined)[];
  blinds: Uint8Array[];
  /** What the client sends: one ristretto255 element a locker, uniformly random whatever the template. */
  blinded: Uint8Array[];
}

/**
 * Blinds every locker's input for one OPRF batch: RFC 9497's OPRF mode with ristretto255-SHA512,
 * B = r·HashToGroup(input) with a fresh r a locker. A masked locker gets a random input, so the batch
 * always has one element a locker and the server learns neither the mask nor which lockers count.
 * `arithmetic` may be libsodium's; `blinds` fixes the blinds for known-answer tests only.
 */
export function blindLockers(
  inputs: (Uint8Array | undefined)[],
  arithmetic: LockerArithmetic = nobleLockerArithmetic,
  blinds: Uint8Array[] = inputs.map(() => arithmetic.randomScalar()),
): LockerBatch {
  const blinded = inputs.map((input, i) =>
    arithmetic.multiply(arithmetic.fromHash(lockerUniformBytes(input ?? randomBytes(32))), blinds[i]!),
  );
  return { inputs, blinds, blinded };
}

/**
 * The server's side: k·B for each blinded element. The whole batch is ONE attempt against the guess
 * budget, and must have exactly `lockers` elements: a verification evaluates its own lockers, never
 * more, so one attempt tests one reading, whatever it evaluates. The arithmetic refuses a
 * non-canonical or identity element.
 */
export function evaluateLockers(
  secretKey: Uint8Array,
  blinded: Uint8Array[],
  lockers: number,
  arithmetic: LockerArithmetic = nobleLockerArithmetic,
): Uint8Array[] {
  if (blinded.length !== lockers) throw new RangeError(`A locker batch has exactly ${lockers} elements`);
  return blinded.map((b) => arithmetic.multiply(b, secretKey));
}

/**
 * The OPRF output of each locker that has an input, undefined for a masked one: RFC 9497 Finalize,
 * SHA-512(len ‖ input ‖ len ‖ r⁻¹·Z ‖ "Finalize"), 64 bytes. Secret: it opens the locker.
 */
export function finalizeLockers(
  batch: LockerBatch,
  evaluated: Uint8Array[],
  arithmetic: LockerArithmetic = nobleLockerArithmetic,
): (Uint8Array | undefined)[] {
  return batch.inputs.map((input, i) => {
    if (!input) return undefined;
    return finalizeLocker(input, arithmetic.multiply(evaluated[i]!, arithmetic.invertScalar(batch.blinds[i]!)));
  });
}
