/**
 * The bucket of a locker's tag: its first `bucketBits` bits (0 to 32). A verification asks, for each
 * locker, for the bucket its reading falls in, and learns every stored locker there: the server
 * learns a bucket a locker, never the tag. `bucketBits` sets the trade between what is downloaded and
 * how many people share the answer (decision 077).
 */
export function lockerBucket(tag: Uint8Array, bucketBits: number): number {
  if (bucketBits === 0) return 0;
  const top = ((tag[0]! << 24) | (tag[1]! << 16) | (tag[2]! << 8) | tag[3]!) >>> 0;
  return top >>> (32 - bucketBits);
}

/** The 16 bits after the bucket's 32 that a reply carries to tell the lockers of a bucket apart. */
export const lockerFingerprint = (tag: Uint8Array) => (tag[4]! << 8) | tag[5]!;
