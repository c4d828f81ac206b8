import { nobleLockerArithmetic, type LockerArithmetic } from './locker-arithmetic.ts';
import { finalizeLocker, lockerUniformBytes } from './locker-oprf.ts';

/**
 * Every locker's OPRF output computed by the key's holder itself, with no blinding: the same bytes
 * as `blindLockers`, `evaluateLockers` and `finalizeLockers` give (RFC 9497's OPRF is deterministic),
 * at one multiplication a locker instead of three. This is the raw path's: the client sent its
 * template to the server, which evaluates on its behalf and drops it. Undefined for a masked locker.
 * Secret: each output opens its locker; the caller keeps only hashes of them.
 */
export function lockerOutputsWithKey(
  inputs: (Uint8Array | undefined)[],
  secretKey: Uint8Array,
  arithmetic: LockerArithmetic = nobleLockerArithmetic,
): (Uint8Array | undefined)[] {
  return inputs.map(
    (input) => input && finalizeLocker(input, arithmetic.multiply(arithmetic.fromHash(lockerUniformBytes(input)), secretKey)),
  );
}
