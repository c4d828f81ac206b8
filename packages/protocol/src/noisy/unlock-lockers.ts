import { randomBytes } from '@noble/hashes/utils.js';
import { lockerBucket, lockerFingerprint } from './locker-bucket.ts';
import type { BucketEntry } from './locker-table.ts';
import { lockerPad, lockerTag, xorBytes } from './lock-lockers.ts';

/**
 * The bucket a verification asks for at each locker: the bucket of its reading's tag, or a random one
 * for a masked locker, so every verification asks for exactly one bucket a locker and the server cannot
 * tell which lockers the reader saw. `rng` is for known-answer tests only.
 */
export function bucketQueries(
  outputs: (Uint8Array | undefined)[],
  bucketBits: number,
  rng: (length: number) => Uint8Array = randomBytes,
): number[] {
  return outputs.map((output) => lockerBucket(output ? lockerTag(output) : rng(4), bucketBits));
}

/** A seed one locker gave back, and the leaf it claims: the caller checks the seed's commitment there. */
export interface UnlockedSeed {
  locker: number;
  seed: Uint8Array;
  leafIndex: number;
}

/**
 * Opens every locker whose reply holds an entry with the reading's fingerprint: seed = seal ⊕ pad(y_j).
 * A locker whose sampled bits the reading repeats gives the registered seed; a 16-bit fingerprint that
 * matches by chance gives garbage, which the commitment check at its leaf throws away. Nothing here is
 * sent anywhere: the server learned the buckets when it answered them.
 */
export function unlockLockers(outputs: (Uint8Array | undefined)[], replies: BucketEntry[][]): UnlockedSeed[] {
  const found: UnlockedSeed[] = [];
  outputs.forEach((output, locker) => {
    if (!output) return;
    const fingerprint = lockerFingerprint(lockerTag(output));
    for (const entry of replies[locker] ?? []) {
      if (entry.fingerprint === fingerprint)
        found.push({ locker, seed: xorBytes(entry.seal, lockerPad(output)), leafIndex: entry.leafIndex });
    }
  });
  return found;
}
