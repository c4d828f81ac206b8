import type { CredentialLeafRepository } from '../storage/types.ts';
import { bucketHexChars, type Registry } from './member-tree.ts';
import { leafWithProof } from './leaf-with-proof.ts';

/**
 * A GET /credential-members bucket (decision 088): every live credential leaf whose identity's
 * commitment is in the member tree's `bucket` (the bucket the device asks GET /members for), with its
 * credential-tree Merkle proof, and the credential tree's size, depth and root as the proofs see them.
 * Bucketing by the commitment, not the leaf, means a device asks for one bucket, its own, whatever
 * the number of trusted issuers, and tells the server nothing /members did not. The commitments
 * themselves are not in the reply. A leaf whose identity, or itself, is erased (0) is left out.
 * `memberRoot` is the member tree's root at the same moment: the reply changes when either root does.
 */
export async function credentialBucketMembers(members: Registry, credentials: Registry, leaves: CredentialLeafRepository, bucket: string) {
  const owned = await leaves.positionsOf(members.leavesInBucket(bucket));
  // From here on synchronous: both trees as they are at one moment, whatever catch-up ran during the read.
  const live = owned.filter(
    ({ position, leafIndex }) =>
      members.commitmentAt(leafIndex) !== undefined &&
      members.commitmentAt(leafIndex) !== '0' &&
      credentials.commitmentAt(position) !== undefined &&
      credentials.commitmentAt(position) !== '0',
  );
  return {
    memberRoot: members.root,
    reply: {
      size: credentials.size,
      depth: credentials.provingDepth,
      root: credentials.root,
      bucketHexChars: bucketHexChars(members.size),
      bucket,
      members: live.map(({ position }) => leafWithProof(credentials, position)),
    },
  };
}
