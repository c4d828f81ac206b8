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
 * `roots` names both trees' roots at that moment (the reply changes when either does); `settled` says
 * neither tree moved during the read, so no leaf filed meanwhile can be missing: only then may the
 * reply be kept for those roots.
 */
export async function credentialBucketMembers(members: Registry, credentials: Registry, leaves: CredentialLeafRepository, bucket: string) {
  const rootsOf = () => `${members.root} ${credentials.root}`;
  const before = rootsOf();
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
    roots: rootsOf(),
    settled: rootsOf() === before,
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
