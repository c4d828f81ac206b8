import type { Registry } from './member-tree.ts';

/**
 * Every leaf of `bucket` in the tree as it is now, with its LeanIMT Merkle proof: the body of a
 * k-anonymous bucket reply, for the member tree (`GET /members`) and the credential tree
 * (`GET /credential-members`, decision 088) alike.
 */
export function bucketMembers(registry: Registry, bucket: string) {
  return registry.leavesInBucket(bucket).map((leafIndex) => {
    const proof = registry.merkleProof(leafIndex);
    return { leaf: proof.leaf.toString(), leafIndex, proofIndex: proof.index, siblings: proof.siblings.map((s) => s.toString()) };
  });
}
