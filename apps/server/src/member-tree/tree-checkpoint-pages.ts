import type { CheckpointRepository } from '../storage/types.ts';
import { BucketIndex } from './bucket-index.ts';
import { levelLengths, NODE_BYTES, PackedLeanIMT } from './packed-lean-imt.ts';

/** What `tree_checkpoints.nodes` holds for a checkpoint whose bytes are in `tree_checkpoint_pages`. */
export const PAGED_CHECKPOINT = 'pages:v1';
/** One page: 1 MiB, small enough for any driver and for the SQLite thread's messages. */
export const PAGE_BYTES = 1 << 20;

/**
 * A checkpoint's bytes, in order: every node of every level (leaves first, 32 bytes big-endian),
 * then each leaf's /members bucket (16 bits, little-endian). A tree of n leaves has levels of n,
 * ⌈n/2⌉, … 1 nodes, so the size alone says where everything starts: about 66 bytes a member.
 */
export function checkpointBytes(size: number): number {
  return levelLengths(size).reduce((sum, length) => sum + length, 0) * NODE_BYTES + 2 * size;
}

export function checkpointPageCount(size: number): number {
  return Math.ceil(checkpointBytes(size) / PAGE_BYTES);
}

const bucketView = (buckets: Uint16Array) => Buffer.from(buckets.buffer, buckets.byteOffset, buckets.byteLength);

/**
 * The pieces of a checkpoint of the tree as it is now, taken synchronously, so that the tree may go
 * on growing while the pages are written. Appending leaves rewrites, on each level L, only nodes from
 * index ⌊n / 2^L⌋ on (the old right edge), so everything before it is shared with the tree (views),
 * and only that edge, at most a node a level, is copied. `buckets` only ever grow. A leaf replaced
 * in place (erasure) rewrites a whole path: the caller discards a checkpoint taken across one.
 */
export function checkpointPieces(tree: PackedLeanIMT, buckets: BucketIndex): Buffer[] {
  const size = tree.size;
  const pieces: Buffer[] = [];
  tree.levelBytes().forEach((level, L) => {
    const stable = Math.floor(size / 2 ** L) * NODE_BYTES;
    pieces.push(level.subarray(0, stable), Buffer.from(level.subarray(stable)));
  });
  if (buckets.size < size) throw new Error('Every leaf must have its bucket before a checkpoint');
  pieces.push(bucketView(buckets.bucketBytes().subarray(0, size)));
  return pieces;
}

/** Cuts the pieces into pages of PAGE_BYTES (the last one shorter), copying each page once. */
export function* checkpointPages(pieces: Buffer[]): Generator<Buffer> {
  let page = Buffer.allocUnsafe(PAGE_BYTES);
  let filled = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length;) {
      const copied = piece.copy(page, filled, at, Math.min(piece.length, at + PAGE_BYTES - filled));
      at += copied;
      filled += copied;
      if (filled === PAGE_BYTES) {
        yield page;
        page = Buffer.allocUnsafe(PAGE_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield page.subarray(0, filled);
}

/**
 * Rebuilds a tree of `size` leaves and its buckets from its pages, read in batches by `read(first,
 * count)`, straight into the tree's own buffers: no copy of the whole checkpoint is ever held.
 * Throws if a page is missing or the wrong length; the caller checks the root.
 */
export async function readCheckpointPages(
  size: number,
  read: (first: number, count: number) => Promise<Uint8Array[]>,
): Promise<{ tree: PackedLeanIMT; buckets: BucketIndex }> {
  const { tree, levels } = PackedLeanIMT.allocate(size);
  const bucketArray = new Uint16Array(size);
  const targets = [...levels, bucketView(bucketArray)];
  const pages = checkpointPageCount(size);
  const total = checkpointBytes(size);
  let target = 0;
  let into = 0;
  for (let first = 0; first < pages;) {
    const count = Math.min(16, pages - first);
    const batch = await read(first, count);
    if (batch.length !== count) throw new Error(`A tree checkpoint of ${size} leaves lacks pages from ${first} on`);
    for (const raw of batch) {
      const expected = Math.min(PAGE_BYTES, total - first * PAGE_BYTES);
      if (raw.byteLength !== expected)
        throw new Error(`Page ${first} of a tree checkpoint has ${raw.byteLength} bytes, expected ${expected}`);
      const page = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let at = 0; at < page.length;) {
        while (into === targets[target]!.length) {
          target += 1;
          into = 0;
        }
        const copied = page.copy(targets[target]!, into, at);
        at += copied;
        into += copied;
      }
      first += 1;
    }
  }
  const buckets = new BucketIndex();
  buckets.load(bucketArray);
  return { tree, buckets };
}

/**
 * Writes a checkpoint's pages a few at a time (each batch its own short write), then, if `stillValid()`,
 * the row that makes it visible, unless a leaf was erased after erasure `erasuresSeen` (decision 022).
 * Pages of a checkpoint that is not recorded are deleted. Returns whether the checkpoint was recorded.
 */
export async function savePagedCheckpoint(
  checkpoints: CheckpointRepository,
  checkpoint: { size: number; root: string; pieces: Buffer[] },
  stillValid: () => boolean = () => true,
  erasuresSeen = 0,
): Promise<boolean> {
  const { size, root } = checkpoint;
  const pages = checkpointPages(checkpoint.pieces);
  let first = 0;
  let batch: Buffer[] = [];
  for (let next = pages.next(); ; next = pages.next()) {
    if (!next.done) batch.push(next.value);
    if (batch.length === 8 || (next.done && batch.length > 0)) {
      await checkpoints.savePages(size, root, first, batch);
      first += batch.length;
      batch = [];
    }
    if (next.done) break;
  }
  if (!stillValid()) {
    // The tree changed in place while the pages were written: they may hold an erased leaf.
    await checkpoints.discardPages(size, root);
    return false;
  }
  return checkpoints.save({ size, root, nodes: PAGED_CHECKPOINT }, erasuresSeen);
}
