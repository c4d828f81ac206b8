import { Group } from '@semaphore-protocol/group';
import { memberBucket } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';

/** Buckets are indexed by this many hex characters; requests may ask for fewer. */
const INDEXED_BUCKET_CHARS = 4;
/** The smallest expected bucket: the k of k-anonymity that `GET /members` gives. */
export const MIN_BUCKET_MEMBERS = 64;

/**
 * How many hex characters of sha256(commitment) name a bucket for a group of `size`: as many as keep
 * the expected bucket at MIN_BUCKET_MEMBERS or more (so from 64 up to 1,023 members), and none at all,
 * the whole group, while the group is smaller than 1,024.
 */
export function bucketHexChars(size: number): number {
  if (size < MIN_BUCKET_MEMBERS * 16) return 0;
  return Math.min(INDEXED_BUCKET_CHARS, Math.floor(Math.log(size / MIN_BUCKET_MEMBERS) / Math.log(16)));
}

/**
 * The Semaphore group of every registered commitment, kept in memory as a LeanIMT and brought up to
 * date from the `identities` table, which is the source of truth. Any process sharing the database
 * calls `catchUp()` before answering a question about the tree, so a registration made by another
 * process is visible at once. Each root the tree passes through is recorded in the root history.
 */
export class Registry {
  private readonly group = new Group();
  private readonly indexByCommitment = new Map<string, number>();
  private readonly leavesByBucket = new Map<string, number[]>();
  private readonly commitments: string[] = [];
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly storage: Storage) {}

  get size(): number {
    return this.group.size;
  }

  get depth(): number {
    return this.group.depth;
  }

  /** The depth proofs are made and checked at: the circuits start at depth 1. */
  get provingDepth(): number {
    return Math.max(1, this.group.depth);
  }

  get root(): string {
    return this.group.size === 0 ? '0' : this.group.root.toString();
  }

  /** Serialised, so two concurrent catch-ups never append the same leaves twice. */
  catchUp(): Promise<void> {
    const run = this.pending.catch(() => undefined).then(() => this.appendNewLeaves());
    this.pending = run;
    return run;
  }

  commitmentAt(index: number): string | undefined {
    return this.commitments[index];
  }

  indexOf(commitment: string): number | undefined {
    return this.indexByCommitment.get(commitment);
  }

  merkleProof(index: number) {
    return this.group.generateMerkleProof(index);
  }

  /** Leaf indexes whose sha256(commitment) starts with `prefix` (at most INDEXED_BUCKET_CHARS long). */
  leavesInBucket(prefix: string): number[] {
    if (prefix.length >= INDEXED_BUCKET_CHARS) {
      return (this.leavesByBucket.get(prefix.slice(0, INDEXED_BUCKET_CHARS)) ?? []).filter(
        (i) => memberBucket(this.commitments[i]!, prefix.length) === prefix,
      );
    }
    const leaves: number[] = [];
    for (const [key, indexes] of this.leavesByBucket) if (key.startsWith(prefix)) leaves.push(...indexes);
    return leaves.sort((a, b) => a - b);
  }

  private async appendNewLeaves(): Promise<void> {
    const batchSize = 10_000;
    for (;;) {
      const commitments = await this.storage.identities.commitmentsFrom(this.group.size, batchSize);
      if (commitments.length === 0) return;
      const first = this.group.size;
      this.group.addMembers(commitments.map((c) => BigInt(c)));
      commitments.forEach((c, i) => {
        this.indexByCommitment.set(c, first + i);
        this.commitments.push(c);
        const bucket = memberBucket(c, INDEXED_BUCKET_CHARS);
        const leaves = this.leavesByBucket.get(bucket);
        if (leaves) leaves.push(first + i);
        else this.leavesByBucket.set(bucket, [first + i]);
      });
      await this.storage.roots.record(this.group.size, this.root);
      if (commitments.length < batchSize) return;
    }
  }
}
