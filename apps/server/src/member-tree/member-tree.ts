import { memberBucket } from '@zeroid/protocol';
import { BucketIndex, INDEXED_BUCKET_CHARS } from './bucket-index.ts';
import { PackedLeanIMT } from './packed-lean-imt.ts';
import { loadCheckpoint } from './load-checkpoint.ts';
import { checkpointPieces, savePagedCheckpoint } from './tree-checkpoint-pages.ts';
import { memberLeaves, type LeafSource } from './leaf-sources.ts';
import type { Storage } from '../storage/types.ts';
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
  /**
   * The table the tree catches up from and the root history it records in: the member tree's
   * (`identities`, `roots`) by default, or the credential tree's (decision 088).
   */
  leaves?: LeafSource;
  /**
   * Told whenever this tree's table was reported moved (`catchUpSoon`): a registration or an erasure
   * may move the credential tree too, whose roots must be stamped as promptly (decision 088).
   */
  onTableMoved?: () => void;
}

/**
 * How long after a registration the tree catches up in the background (`catchUpSoon`). Every
 * question about the tree catches up first, so this delay is never seen by a client; it lets a burst
 * of registrations share one catch-up. Appending B leaves rehashes the tree's right edge once, so a
 * catch-up costs about B + depth Poseidon hashes: a catch-up per group commit (2–3 leaves) hashed
 * several times per leaf on the event loop, one every 100 ms barely more than once (docs/benchmarks.md, "Tree
 * hashing"). It also spares a root write, and its fsync, per registration.
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
 * Hashing every leaf would take minutes at a million (docs/benchmarks.md, "Tree hashing"), so the first catch-up starts from the newest tree checkpoint
 * (checked against its recorded root) and hashes only the leaves added since; checkpoints are saved
 * in the background as the tree grows. The tree and the bucket index are packed in buffers and typed
 * arrays, about 100 bytes a member in all (decision 025).
 */
export class Registry {
  private tree = new PackedLeanIMT();
  private buckets = new BucketIndex();
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
  private readonly leaves: LeafSource;

  constructor(
    private readonly storage: Storage,
    private readonly options: RegistryOptions = {},
  ) {
    this.checkpointEvery = options.checkpointEvery ?? 10_000;
    this.leaves = options.leaves ?? memberLeaves(storage);
  }

  get size(): number {
    return this.tree.size;
  }

  /** The depth proofs against the current root are made and checked at (`provingDepthFor`). */
  get provingDepth(): number {
    return provingDepthFor(this.tree.size);
  }

  get root(): string {
    return this.tree.root.toString();
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
    this.options.onTableMoved?.();
    this.tableMovedAt ??= Date.now();
    if (this.backgroundTimer) return;
    this.backgroundTimer = setTimeout(() => {
      this.backgroundTimer = undefined;
      this.catchUp().catch((error: unknown) => this.options.onError?.(error));
    }, BACKGROUND_CATCH_UP_MS);
    this.backgroundTimer.unref();
  }

  /** Whether the current tree holds this commitment as a leaf (an erased one it no longer holds): one bucket of the index. */
  holds(commitment: string): boolean {
    return this.leavesInBucket(memberBucket(commitment, INDEXED_BUCKET_CHARS)).some((i) => this.commitmentAt(i) === commitment);
  }

  /** The leaf at `index`, in canonical decimal. Only the tree holds the leaves (no second copy as strings). */
  commitmentAt(index: number): string | undefined {
    return this.tree.leaf(index)?.toString();
  }

  /**
   * The LeanIMT Merkle proof of one leaf, as `Group.generateMerkleProof` computes it, in O(depth).
   * The library's own version copies the whole leaf array on every call (`this.leaves[index]`), which
   * made a /members reply of a few hundred proofs take seconds at a million members. The test
   * checks both agree.
   */
  merkleProof(index: number): { root: bigint; leaf: bigint; index: number; siblings: bigint[] } {
    return this.tree.merkleProof(index);
  }

  /** Leaf indexes whose sha256(commitment) starts with `prefix` (at most INDEXED_BUCKET_CHARS long). */
  leavesInBucket(prefix: string): number[] {
    // An erased leaf (0, decision 022) is in no bucket: nobody can prove it.
    const leaves = this.buckets.leavesWithPrefix(prefix.slice(0, INDEXED_BUCKET_CHARS)).filter((i) => this.tree.leaf(i) !== 0n);
    if (prefix.length <= INDEXED_BUCKET_CHARS) return leaves;
    return leaves.filter((i) => memberBucket(this.commitmentAt(i)!, prefix.length) === prefix);
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
    // Taken before the read: a registration reported after it may not be in this read, and keeps its own time.
    const tableMovedAt = this.tableMovedAt;
    this.tableMovedAt = undefined;
    if (!this.loaded) {
      await this.loadCheckpoint();
      this.loaded = true;
    } else if (await this.nothingMoved()) {
      return this.checkpointIfDue();
    }
    const batchSize = 10_000;
    for (;;) {
      const commitments = await this.leaves.leavesFrom(this.tree.size, batchSize);
      if (commitments.length === 0) break;
      const first = this.tree.size;
      this.tree.append(commitments.map((c) => BigInt(c)));
      this.indexFrom(first);
      this.unrecorded = { size: this.size, root: this.root, since: this.unrecorded?.since ?? tableMovedAt ?? Date.now() };
      if (commitments.length < batchSize) break;
    }
    await this.applyErasures();
    this.checkpointIfDue();
  }

  /** Starts saving a checkpoint in the background once the tree grew enough, or an erasure deleted the last one. */
  private checkpointIfDue(): void {
    const grown = this.size - this.checkpointedSize >= Math.max(this.checkpointEvery, Math.floor(this.size / 20));
    if (!this.checkpointing && (grown || this.checkpointErased)) {
      this.checkpointErased = false;
      this.checkpointing = this.saveCheckpoint()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => (this.checkpointing = undefined));
    }
  }

  /**
   * True when the table holds no leaf past the tree and the erasure log nothing past what it applied:
   * one statement instead of the two reads of a catch-up, which every verification makes (decision
   * 064). It sees every commit made before it started, in any process, as those reads would.
   */
  private async nothingMoved(): Promise<boolean> {
    const { leafCount, lastErasure } = await this.leaves.changeMarks();
    return leafCount === this.tree.size && lastErasure === this.erasuresSeen;
  }

  /**
   * Sets every leaf erased since the last catch-up to 0, from the ordered erasure log, read after the
   * leaves were appended: a leaf erased before it was appended was read as 0 already, and one past
   * the tree is not there yet (it will be read as 0). Applying one twice changes nothing.
   */
  private async applyErasures(): Promise<void> {
    const erasures = await this.leaves.erasuresAfter(this.erasuresSeen);
    for (const { seq, leafIndex } of erasures) {
      this.erasuresSeen = seq;
      const leaf = this.tree.leaf(leafIndex);
      if (leaf === undefined || leaf === 0n) continue;
      // The leaf keeps its slot in the bucket index; `leavesInBucket` leaves out 0 leaves.
      this.tree.update(leafIndex, 0n);
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
    await this.leaves.roots.record(pending.size, pending.root, pending.since);
    if (this.unrecorded === pending) this.unrecorded = undefined;
  }

  private async loadCheckpoint(): Promise<void> {
    const loaded = await loadCheckpoint(this.leaves, this.options.onError);
    if (!loaded) return;
    this.tree = loaded.tree;
    if (loaded.buckets) this.buckets = loaded.buckets;
    else this.indexFrom(0);
    this.checkpointedSize = loaded.tree.size;
  }

  /**
   * Writes the pages of the tree as it is now (`checkpointPieces` copies only its right edge, so
   * catch-ups go on meanwhile), a few at a time, then the row that makes the checkpoint visible.
   */
  private async saveCheckpoint(): Promise<void> {
    const size = this.size;
    const tree = this.tree;
    const updates = tree.updates;
    const erasuresSeen = this.erasuresSeen;
    const pieces = checkpointPieces(tree, this.buckets);
    // A leaf replaced in place meanwhile would have changed pages already written: not recorded then.
    const saved = await savePagedCheckpoint(
      this.leaves.checkpoints,
      { size, root: this.root, pieces },
      () => tree === this.tree && tree.updates === updates,
      erasuresSeen,
    );
    if (saved) this.checkpointedSize = Math.max(this.checkpointedSize, size);
  }

  /** Files the leaves from index `first` on under their bucket. */
  private indexFrom(first: number) {
    for (let i = first; i < this.tree.size; i += 1) {
      this.buckets.push(Number.parseInt(memberBucket(this.commitmentAt(i)!, INDEXED_BUCKET_CHARS), 16));
    }
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
