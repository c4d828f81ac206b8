import type { Registry } from './member-tree.ts';

/** One leaf of a bucket reply with its LeanIMT Merkle proof, as the wire gives it (decimal strings). */
export function leafWithProof(registry: Registry, leafIndex: number) {
  const proof = registry.merkleProof(leafIndex);
  return { leaf: proof.leaf.toString(), leafIndex, proofIndex: proof.index, siblings: proof.siblings.map((s) => s.toString()) };
}
