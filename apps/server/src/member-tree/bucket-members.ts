import type { Registry } from './member-tree.ts';
import { leafWithProof } from './leaf-with-proof.ts';

/**
 * Every leaf of `bucket` in the tree as it is now, with its LeanIMT Merkle proof: the body of a
 * k-anonymous `GET /members` bucket reply. (`GET /credential-members` buckets the credential tree by
 * its identities' commitments instead: `credential-bucket-members.ts`, decision 088.)
 */
export function bucketMembers(registry: Registry, bucket: string) {
  return registry.leavesInBucket(bucket).map((leafIndex) => leafWithProof(registry, leafIndex));
}
