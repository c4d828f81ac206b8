import type { Group } from '@semaphore-protocol/group';

/**
 * The one place that reaches into LeanIMT's internals (`_nodes`, `_hash`), pinned by the lockfile:
 * its levels of nodes, leaves first and root last. The library copies whole levels where we must
 * not (`leaves`, `insertMany`, `generateMerkleProof`); the tests compare everything built here with
 * the library's own results, so an upgrade that changes the internals fails loudly.
 */
type Internals = { _nodes: bigint[][]; _hash: (a: bigint, b: bigint) => bigint };
const internals = (group: Group) => group.leanIMT as unknown as Internals;

/** The tree's levels, by reference (no copy). */
export function treeNodes(group: Group): bigint[][] {
  return internals(group)._nodes;
}

/** Makes `group` the tree with exactly these levels, without hashing. */
export function setTreeNodes(group: Group, levels: bigint[][]): void {
  internals(group)._nodes = levels;
}

/**
 * `LeanIMT.insertMany`, without its `leaves.concat(newLeaves)`: that copies the whole leaf level on
 * every call, about 5 ms at a million members, paid by every catch-up. Appending in place and
 * rehashing only the new right edge gives the same nodes (the tests compare roots with `Group`).
 * A 0 leaf is one erased before this tree read it, as `Group.removeMember` would have left it.
 */
export function appendLeaves(group: Group, leaves: bigint[]): void {
  // 0 is an erased member (decision 022): a leaf nobody can prove, kept so every other path stays valid.
  const tree = internals(group);
  const nodes = tree._nodes;
  let start = nodes[0]!.length >> 1;
  for (const leaf of leaves) nodes[0]!.push(leaf);
  const depth = Math.ceil(Math.log2(nodes[0]!.length));
  while (nodes.length - 1 < depth) nodes.push([]);
  for (let level = 0; level < nodes.length - 1; level += 1) {
    const children = nodes[level]!;
    const parents = nodes[level + 1]!;
    const count = Math.ceil(children.length / 2);
    for (let index = start; index < count; index += 1) {
      const right = children[index * 2 + 1];
      parents[index] = right === undefined ? children[index * 2]! : tree._hash(children[index * 2]!, right);
    }
    start >>= 1;
  }
}

/**
 * Sets the leaf at `index` to 0, as `Group.removeMember` does (LeanIMT `update`, O(depth)), without
 * its copy of every member: an erasure (decision 022). Other members' paths stay valid; their
 * siblings along this leaf's path change, so their proofs are made against the new root.
 */
export function eraseLeaf(group: Group, index: number): void {
  group.leanIMT.update(index, 0n);
}
