import { Group } from '@semaphore-protocol/group';
import { memberBucket } from '@zeroid/protocol';
import { appendLeaves, eraseLeaf, treeNodes } from './lean-imt-nodes.ts';
import { decodeTree, encodeTree } from './tree-snapshot.ts';
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
 * The depth proofs are made and checked at for a tree of `size` leaves: the LeanIMT's depth,
 * ceil(log2(size)), but at least 1, where the circuits start. It grows by one each time the group
 * passes a power of two (2 → 3 members: depth 1 → 2).
 */
export function provingDepthFor(size: number): number {
  return size <= 2 ? 1 : (size - 1).toString(2).length;
}

export interface RegistryOptions {
  /** Save a tree checkpoint once the tree has grown by this many leaves, or by 5 %, whichever is more. */
  checkpointEvery?: number;
  /** Where background failures (a checkpoint or a root record that could not be saved) are reported. */
  onError?: (error: unknown) => void;
}

/**
 * How long after a registration the tree catches up in the background (`catchUpSoon`). Every
 * question about the tree catches up first, so this delay is never seen by a client; it lets a burst
 * of registrations share one catch-up. Appending B leaves rehashes the tree's right edge once, so a
 * catch-up costs about B + depth Poseidon hashes (0.3 ms each): at 300 registrations a second, a
 * catch-up per group commit (2–3 leaves) hashed about 6 times per leaf on the event loop, one every
 * 100 ms about 1.5 times. It also spares a root write, and its fsync, per registration.
 */
export const BACKGROUND_CATCH_UP_MS = 100;

/**
 * The Semaphore group of every registered commitment, kept in memory as a LeanIMT and brought up to
 * date from the `identities` table, which is the source of truth. Any process sharing the database
 * calls `catchUp()` before answering a question about the tree, so a registration made by another
 * process is visible at once.
 *
 * The root history holds every root this process served or checked a proof against, written before
 * it is served; registrations move the tree and its root within BACKGROUND_CATCH_UP_MS. A root is
 * stamped with the time this process first knew the table had moved past the last recorded one, so
 * the acceptance window of a superseded root never grows by the delay. A root lost in a crash was
 * never served, and the next catch-up reaches it again.
 *
 * Hashing costs about 0.18 ms a leaf, so the first catch-up starts from the newest tree checkpoint
 * (checked against its recorded root) and hashes only the leaves added since; checkpoints are saved
 * in the background as the tree grows.
 */
export class Registry {
  private group = new Group();
  private readonly leavesByBucket = new Map<string, number[]>();
  private pending: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  /** The current root, if it is not in the root history yet, and since when the tree is past the last recorded one. */
  private unrecorded: { size: number; root: string; since: number } | undefined;
  /** When a registration not yet in the tree was first reported (`catchUpSoon`). */
  private tableMovedAt: number | undefined;
  private backgroundTimer: NodeJS.Timeout | undefined;
  private loaded = false;
  private checkpointedSize = 0;
  private checkpointing: Promise<void> | undefined;
  private readonly checkpointEvery: number;
  /** The last entry of the erasure log this tree has applied (decision 022). */
  private erasuresSeen = 0;
  /** An erasure deleted the checkpoints holding its leaf: save a new one at the next catch-up. */
  private checkpointErased = false;

  constructor(
    private readonly storage: Storage,
    private readonly options: RegistryOptions = {},
  ) {
    this.checkpointEvery = options.checkpointEvery ?? 10_000;
  }

  get size(): number {
    return this.group.size;
  }

  /** The depth proofs against the current root are made and checked at (`provingDepthFor`). */
  get provingDepth(): number {
    return provingDepthFor(this.group.size);
  }

  get root(): string {
    return this.group.size === 0 ? '0' : this.group.root.toString();
  }

  /**
   * Serialised, so two concurrent catch-ups never append the same leaves twice, and coalesced: a
   * caller that arrives while a catch-up is waiting to start joins it, since that one will read the
   * table after the caller's own write. A catch-up waits one turn of the event loop before it starts,
   * so that, under a burst of registrations, the tree takes many leaves per batch: one hash per level
   * per batch instead of per leaf. The new root is in the root history before the promise resolves.
   */
  catchUp(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.pending
      .catch(() => undefined)
      .then(nextTurn)
      .then(async () => {
        this.queued = undefined;
        await this.appendNewLeaves();
        await this.recordRoot();
      });
    this.queued = run;
    this.pending = run;
    return run;
  }

  /**
   * After a registration was committed: catch up within BACKGROUND_CATCH_UP_MS, in the background,
   * together with every other registration of that interval. Failures go to `onError`; the next
   * catch-up reads the table again.
   */
  catchUpSoon(): void {
    this.tableMovedAt ??= Date.now();
    if (this.backgroundTimer) return;
    this.backgroundTimer = setTimeout(() => {
      this.backgroundTimer = undefined;
      this.catchUp().catch((error: unknown) => this.options.onError?.(error));
    }, BACKGROUND_CATCH_UP_MS);
    this.backgroundTimer.unref();
  }

  /** The leaf at `index`, in canonical decimal. Only the tree holds the leaves (no second copy as strings). */
  commitmentAt(index: number): string | undefined {
    return this.leaves()[index]?.toString();
  }

  private leaves(): bigint[] {
    return treeNodes(this.group)[0] ?? [];
  }

  /**
   * The LeanIMT Merkle proof of one leaf, as `Group.generateMerkleProof` computes it, in O(depth).
   * The library's own version copies the whole leaf array on every call (`this.leaves[index]`), which
   * made a /members reply of a few hundred proofs take seconds at a million members. The test
   * checks both agree.
   */
  merkleProof(index: number): { root: bigint; leaf: bigint; index: number; siblings: bigint[] } {
    const nodes = treeNodes(this.group);
    const leaf = nodes[0]?.[index];
    if (leaf === undefined) throw new RangeError(`No leaf at index ${index}`);
    const siblings: bigint[] = [];
    let path = 0;
    let position = index;
    for (let level = 0; level < nodes.length - 1; level += 1) {
      const isRight = position & 1;
      const sibling = nodes[level]![isRight ? position - 1 : position + 1];
      // A missing sibling means the parent equals this node: no hash, and no bit in the path.
      if (sibling !== undefined) {
        path += isRight * 2 ** siblings.length;
        siblings.push(sibling);
      }
      position >>= 1;
    }
    return { root: this.group.root, leaf, index: path, siblings };
  }

  /** Leaf indexes whose sha256(commitment) starts with `prefix` (at most INDEXED_BUCKET_CHARS long). */
  leavesInBucket(prefix: string): number[] {
    if (prefix.length >= INDEXED_BUCKET_CHARS) {
      return (this.leavesByBucket.get(prefix.slice(0, INDEXED_BUCKET_CHARS)) ?? []).filter(
        (i) => memberBucket(this.commitmentAt(i)!, prefix.length) === prefix,
      );
    }
    const leaves: number[] = [];
    for (const [key, indexes] of this.leavesByBucket) if (key.startsWith(prefix)) leaves.push(...indexes);
    return leaves.sort((a, b) => a - b);
  }

  /**
   * Records the current root, waits for a checkpoint being saved, and saves one if the tree moved
   * since: for a clean stop and a fast next start.
   */
  async flush(): Promise<void> {
    clearTimeout(this.backgroundTimer);
    this.backgroundTimer = undefined;
    await this.catchUp();
    await this.checkpointing;
    if (this.size > this.checkpointedSize) await this.saveCheckpoint();
  }

  private async appendNewLeaves(): Promise<void> {
    if (!this.loaded) {
      await this.loadCheckpoint();
      this.loaded = true;
    }
    const batchSize = 10_000;
    // Taken before the read: a registration reported after it may not be in this read, and keeps its own time.
    const tableMovedAt = this.tableMovedAt;
    this.tableMovedAt = undefined;
    for (;;) {
      const commitments = await this.storage.identities.commitmentsFrom(this.group.size, batchSize);
      if (commitments.length === 0) break;
      const first = this.group.size;
      appendLeaves(
        this.group,
        commitments.map((c) => BigInt(c)),
      );
      this.indexFrom(first);
      this.unrecorded = { size: this.size, root: this.root, since: this.unrecorded?.since ?? tableMovedAt ?? Date.now() };
      if (commitments.length < batchSize) break;
    }
    await this.applyErasures();
    const grown = this.size - this.checkpointedSize >= Math.max(this.checkpointEvery, Math.floor(this.size / 20));
    if (!this.checkpointing && (grown || this.checkpointErased)) {
      this.checkpointErased = false;
      this.checkpointing = this.saveCheckpoint()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => (this.checkpointing = undefined));
    }
  }

  /**
   * Sets every leaf erased since the last catch-up to 0, from the ordered erasure log, read after the
   * leaves were appended: a leaf erased before it was appended was read as 0 already, and one past
   * the tree is not there yet (it will be read as 0). Applying one twice changes nothing.
   */
  private async applyErasures(): Promise<void> {
    const erasures = await this.storage.identities.erasuresAfter(this.erasuresSeen);
    if (erasures.length === 0) return;
    const leaves = this.leaves();
    for (const { seq, leafIndex } of erasures) {
      this.erasuresSeen = seq;
      const leaf = leaves[leafIndex];
      if (leaf === undefined || leaf === 0n) continue;
      const bucket = memberBucket(leaf.toString(), INDEXED_BUCKET_CHARS);
      const indexes = this.leavesByBucket.get(bucket)?.filter((i) => i !== leafIndex) ?? [];
      if (indexes.length > 0) this.leavesByBucket.set(bucket, indexes);
      else this.leavesByBucket.delete(bucket);
      eraseLeaf(this.group, leafIndex);
      if (leafIndex < this.checkpointedSize) {
        this.checkpointedSize = 0;
        this.checkpointErased = true;
      }
      // The new root is stamped now; the one it supersedes stays accepted for the root window.
      this.unrecorded = { size: this.size, root: this.root, since: Date.now() };
    }
  }

  private async recordRoot(): Promise<void> {
    const pending = this.unrecorded;
    if (!pending) return;
    await this.storage.roots.record(pending.size, pending.root, pending.since);
    if (this.unrecorded === pending) this.unrecorded = undefined;
  }

  private async loadCheckpoint(): Promise<void> {
    const checkpoint = await this.storage.checkpoints.latest(await this.storage.identities.count());
    if (!checkpoint) return;
    const group = decodeTree(checkpoint.size, checkpoint.nodes);
    const recorded = await this.storage.roots.rootOf(checkpoint.size);
    // A snapshot that does not reproduce its own root, or disagrees with the root history, is ignored.
    // A size may have several recorded roots once leaves are erased; the snapshot's must be one of them.
    if (
      group.size !== checkpoint.size ||
      group.root.toString() !== checkpoint.root ||
      (recorded !== undefined && recorded !== checkpoint.root && !(await this.storage.roots.isRecorded(checkpoint.size, checkpoint.root)))
    ) {
      return;
    }
    this.group = group;
    this.indexFrom(0);
    this.checkpointedSize = checkpoint.size;
  }

  private async saveCheckpoint(): Promise<void> {
    const size = this.size;
    await this.storage.checkpoints.save({ size, root: this.root, nodes: encodeTree(this.group) }, this.erasuresSeen);
    this.checkpointedSize = Math.max(this.checkpointedSize, size);
  }

  /** Files the leaves from index `first` on under their bucket, one at a time (no array of a million strings). */
  private indexFrom(first: number) {
    const leaves = this.leaves();
    for (let i = first; i < leaves.length; i += 1) {
      if (leaves[i] === 0n) continue; // erased: in no bucket
      const bucket = memberBucket(leaves[i]!.toString(), INDEXED_BUCKET_CHARS);
      const indexes = this.leavesByBucket.get(bucket);
      if (indexes) indexes.push(i);
      else this.leavesByBucket.set(bucket, [i]);
    }
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
