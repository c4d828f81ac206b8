import { bytesToHex } from '@noble/hashes/utils.js';
import { lockerBucket, lockerFingerprint } from './locker-bucket.ts';
import type { Locker } from './lock-lockers.ts';

/** What a bucket's reply carries for one stored locker: 2 + 16 + 4 bytes. */
export interface BucketEntry {
  fingerprint: number;
  seal: Uint8Array;
  /** The owner's leaf in the Semaphore group, so a candidate seed is checked against its commitment. */
  leafIndex: number;
}

/** Bytes a reply spends on one entry: fingerprint, seal and leaf index. */
export const BUCKET_ENTRY_BYTES = 2 + 16 + 4;
/** Bytes stored for one locker: the whole tag, the seal and the leaf index. */
export const STORED_LOCKER_BYTES = 8 + 16 + 4;

/**
 * The server's lockers, one table per locker number, in memory (the prototype's store; a product keeps
 * the same rows in its database). It answers two questions and nothing else: does any of these tags
 * already exist in its own table (a second registration of the same eye), and which lockers fall in a
 * bucket. It never sees a template or an OPRF output, only hashes of outputs.
 */
export class LockerTable {
  private readonly tags: Set<string>[];
  private readonly buckets: Map<number, BucketEntry[]>[];
  private readonly rows: { locker: number; tag: Uint8Array; seal: Uint8Array; leafIndex: number }[] = [];

  constructor(
    readonly lockers: number,
    readonly bucketBits: number,
  ) {
    this.tags = Array.from({ length: lockers }, () => new Set<string>());
    this.buckets = Array.from({ length: lockers }, () => new Map<number, BucketEntry[]>());
  }

  /**
   * Stores a registration's lockers under its leaf, unless one of its tags is already in its table:
   * then the same eye (or, with probability lockers·N·2^−64, a colliding one) is registered, and the
   * answer is "already registered". A genuine second reading repeats some lockers exactly, as a
   * verification does, so this refuses it with the verification's own false-rejection rate.
   */
  register(lockers: Locker[], leafIndex: number): 'registered' | 'already registered' {
    if (lockers.length !== this.lockers) throw new RangeError(`A registration has exactly ${this.lockers} lockers`);
    if (lockers.some((l, j) => this.tags[j]!.has(bytesToHex(l.tag)))) return 'already registered';
    lockers.forEach((l, j) => {
      this.tags[j]!.add(bytesToHex(l.tag));
      const bucket = lockerBucket(l.tag, this.bucketBits);
      const entries = this.buckets[j]!.get(bucket) ?? [];
      entries.push({ fingerprint: lockerFingerprint(l.tag), seal: l.seal, leafIndex });
      this.buckets[j]!.set(bucket, entries);
      this.rows.push({ locker: j, tag: l.tag, seal: l.seal, leafIndex });
    });
    return 'registered';
  }

  /** Every stored locker of table `locker` in `bucket`. */
  bucket(locker: number, bucket: number): BucketEntry[] {
    return this.buckets[locker]?.get(bucket) ?? [];
  }

  /** Every byte the table holds, row by row (locker number, tag, seal, leaf): what a stolen database would hold. */
  encode(): Uint8Array {
    const out = new Uint8Array(this.rows.length * (2 + STORED_LOCKER_BYTES));
    this.rows.forEach((row, i) => {
      const at = i * (2 + STORED_LOCKER_BYTES);
      out[at] = row.locker >> 8;
      out[at + 1] = row.locker & 0xff;
      out.set(row.tag, at + 2);
      out.set(row.seal, at + 10);
      new DataView(out.buffer).setUint32(at + 26, row.leafIndex);
    });
    return out;
  }
}
