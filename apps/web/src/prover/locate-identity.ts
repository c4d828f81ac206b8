import { deriveProvingIdentity, memberBucket, type MembersReply } from '@zeroid/protocol';
import { provingIdentityV3 } from '@zeroid/protocol/v3';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { timelineMark } from '../shared/timeline-mark.ts';
import { loadOnDemand } from '../shared/load-on-demand.ts';
import { oprfRoundV3, v3GroupKey } from '../oprf/oprf-round-v3.ts';

type Member = NonNullable<MembersReply['members']>[number];

/** The two things `generateProof` reads of an identity. */
export interface ProvingIdentity {
  secretScalar: bigint;
  commitment: bigint;
}

/**
 * Where a biometric's identity stands: its protocol version, the biometric's OPRF output under it
 * (y_bio for v3, the v2 output's bytes), the identity, its bucket and, when registered, its member
 * entry (Merkle path).
 */
export type LocatedIdentity = { identity: ProvingIdentity; bucket: MembersReply; member: Member | undefined } & (
  { version: 3; output: bigint } | { version: 2; output: Uint8Array }
);

/**
 * Finds which identity a biometric holds (decision 056): the v3 commitment first (one v3 OPRF round)
 * and, only when it is not in its bucket, the v2 one, so a person registered before v3 keeps
 * verifying and erasing with no action. Each round is one guess. Without a v3 key on the server only
 * v2 is tried. Not registered under either: the v2 result with no member. The bucket is the whole
 * group while the group is one bucket (fetched alongside the round), else the commitment's bucket.
 */
export async function locateIdentity(bioInfo: string, paramsRequest: Promise<MembersReply>): Promise<LocatedIdentity> {
  // While the group is one bucket (fewer than 1,024 members), the bucket is known before the
  // identity: fetch it alongside the OPRF round instead of after.
  const wholeGroupRequest = paramsRequest.then((p) =>
    p.bucketHexChars === 0 ? requestJson<MembersReply>(apiUrls.members('')) : undefined,
  );
  wholeGroupRequest.catch(() => undefined);
  const lookup = async (identity: ProvingIdentity) => {
    const commitment = identity.commitment.toString();
    const params = await paramsRequest;
    const bucket =
      (await wholeGroupRequest.catch(() => undefined)) ??
      (await requestJson<MembersReply>(apiUrls.members(memberBucket(commitment, params.bucketHexChars))));
    timelineMark('bucket-found');
    return { bucket, member: bucket.members?.find((m) => m.commitment === commitment) };
  };
  if (await v3GroupKey()) {
    const { output } = await oprfRoundV3('bio', bioInfo);
    timelineMark('oprf-round-done');
    const v3 = provingIdentityV3(output);
    const identity = { secretScalar: v3.secretScalar, commitment: BigInt(v3.commitment) };
    const found = await lookup(identity);
    if (found.member) return { version: 3, output, identity, ...found };
  }
  // Protocol v2's round loads only for a person registered before v3 (decision 066).
  const { oprfRound } = await loadOnDemand(() => import('../oprf/oprf-round.ts'));
  const output = await oprfRound('bio', bioInfo);
  timelineMark('oprf-round-done');
  // Only what the proof needs of the identity (secret scalar, commitment), without its public key.
  const identity = deriveProvingIdentity(output);
  return { version: 2, output, identity, ...(await lookup(identity)) };
}
