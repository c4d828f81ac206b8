import type { BucketIndex } from './bucket-index.ts';
import type { PackedLeanIMT } from './packed-lean-imt.ts';
import { PAGED_CHECKPOINT, readCheckpointPages } from './tree-checkpoint-pages.ts';
import { decodeTree } from './tree-snapshot.ts';
import type { LeafSource } from './leaf-sources.ts';

/**
 * The newest tree checkpoint (with its bucket index when it was saved in pages), if it can be
 * trusted: undefined when there is none, when it cannot be read (reported to `onError`), or when it
 * does not reproduce its own root or disagrees with the root history. The tree then catches up
 * from there, hashing only the leaves added since.
 */
export async function loadCheckpoint(
  source: LeafSource,
  onError: ((error: unknown) => void) | undefined,
): Promise<{ tree: PackedLeanIMT; buckets?: BucketIndex } | undefined> {
  const checkpoint = await source.checkpoints.latest((await source.changeMarks()).leafCount);
  if (!checkpoint) return undefined;
  let loaded: { tree: PackedLeanIMT; buckets?: BucketIndex };
  try {
    loaded =
      checkpoint.nodes === PAGED_CHECKPOINT
        ? await readCheckpointPages(checkpoint.size, (first, count) =>
            source.checkpoints.pages(checkpoint.size, checkpoint.root, first, count),
          )
        : { tree: decodeTree(checkpoint.size, checkpoint.nodes) };
  } catch (error) {
    onError?.(error);
    return undefined;
  }
  const recorded = await source.roots.rootOf(checkpoint.size);
  // A snapshot that does not reproduce its own root, or disagrees with the root history, is ignored.
  // A size may have several recorded roots once leaves are erased; the snapshot's must be one of them.
  if (
    loaded.tree.size !== checkpoint.size ||
    loaded.tree.root.toString() !== checkpoint.root ||
    (recorded !== undefined && recorded !== checkpoint.root && !(await source.roots.isRecorded(checkpoint.size, checkpoint.root)))
  ) {
    return undefined;
  }
  return loaded;
}
