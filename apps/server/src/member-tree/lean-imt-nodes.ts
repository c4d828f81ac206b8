import { Group } from '@semaphore-protocol/group';

/**
 * The one place that reaches into LeanIMT's internals (`_nodes`, `_hash`), pinned by the lockfile.
 * The server keeps its tree packed (`PackedLeanIMT`) but must hash exactly as Semaphore's `Group`
 * does, and still read checkpoints written as LeanIMT's own JSON; the tests compare everything
 * built here with the library's own results, so an upgrade that changes the internals fails loudly.
 */
type Internals = { _nodes: bigint[][]; _hash: (a: bigint, b: bigint) => bigint };
const internals = (group: Group) => group.leanIMT as unknown as Internals;

/** The tree's levels, leaves first and root last, by reference (no copy). */
export function treeNodes(group: Group): bigint[][] {
  return internals(group)._nodes;
}

/** The hash of two children in Semaphore's groups: Poseidon over BN254 with two inputs. */
export const leanImtHash: (left: bigint, right: bigint) => bigint = internals(new Group())._hash;
