import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BucketIndex } from './bucket-index.ts';
import { PackedLeanIMT } from './packed-lean-imt.ts';
import { checkpointBytes, checkpointPages, checkpointPieces, PAGE_BYTES, readCheckpointPages } from './tree-checkpoint-pages.ts';

/** A tree of random nodes (hashing 20,000 leaves would take seconds): the pages only carry bytes. */
const build = (size: number) => {
  const { tree, levels } = PackedLeanIMT.allocate(size);
  for (const level of levels) {
    randomBytes(level.length).copy(level);
    for (let at = 0; at < level.length; at += 32) level[at] = 0;
  }
  const buckets = new BucketIndex();
  for (let i = 0; i < size; i += 1) buckets.push((i * 40_503) & 0xffff);
  return { tree, buckets };
};

describe('paged tree checkpoints', () => {
  it('read back the same tree and buckets, across page boundaries, while the tree grew after the snapshot', async () => {
    // 20,000 leaves: 40,000 nodes of 32 bytes and 40 KB of buckets, so the stream spans a page boundary.
    const { tree, buckets } = build(20_000);
    const root = tree.root;
    const proof = tree.merkleProof(19_999);
    const pieces = checkpointPieces(tree, buckets);
    tree.append([5n, 6n, 7n]); // rewrites the old right edge, which the snapshot copied
    const pages = [...checkpointPages(pieces)];
    expect(pages.length).toBe(Math.ceil(checkpointBytes(20_000) / PAGE_BYTES));
    expect(pages.slice(0, -1).every((page) => page.length === PAGE_BYTES)).toBe(true);

    const read = await readCheckpointPages(20_000, async (first, count) => pages.slice(first, first + count));
    expect(read.tree.root).toBe(root);
    expect(read.tree.merkleProof(19_999)).toEqual(proof);
    expect(read.buckets.leavesWithPrefix('9e37')).toEqual(buckets.leavesWithPrefix('9e37').filter((i) => i < 20_000));
    expect(read.buckets.leavesWithPrefix('').length).toBe(20_000);
  });

  it('refuses missing and short pages', async () => {
    const { tree, buckets } = build(20_000);
    const pages = [...checkpointPages(checkpointPieces(tree, buckets))];
    await expect(readCheckpointPages(20_000, async (first, count) => pages.slice(first, first + count).slice(0, 1))).rejects.toThrow(
      /lacks pages/,
    );
    await expect(readCheckpointPages(20_001, async (first, count) => pages.slice(first, first + count))).rejects.toThrow(/bytes, expected/);
  });
});

describe('BucketIndex', () => {
  it('lists the leaves of a bucket prefix in leaf order, before and after it re-sorts', () => {
    const index = new BucketIndex();
    const buckets = Array.from({ length: 5_000 }, (_, i) => (i * 2_654_435_761) >>> 16);
    buckets.forEach((bucket) => index.push(bucket));
    const expected = (prefix: string) =>
      buckets.flatMap((bucket, i) => (bucket.toString(16).padStart(4, '0').startsWith(prefix) ? [i] : []));
    for (const prefix of ['', 'a', '3f', 'c1d', buckets[4_321]!.toString(16).padStart(4, '0')]) {
      expect(index.leavesWithPrefix(prefix)).toEqual(expected(prefix));
    }
    const loaded = new BucketIndex();
    loaded.load(Uint16Array.from(buckets));
    expect(loaded.leavesWithPrefix('3f')).toEqual(expected('3f'));
  });
});
