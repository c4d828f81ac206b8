import { deriveDidKey, deriveIdentity, memberBucket, signErasure, type MembersReply } from '@zeroid/protocol';
import type { V2Holding } from '@zeroid/protocol/v3';
import type { Identity } from '@semaphore-protocol/identity';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { loadOnDemand } from '../shared/load-on-demand.ts';

/** A person's protocol v2 identity, proven for one challenge, with the key that makes its sign-in proofs. */
export interface HeldV2 {
  holding: V2Holding;
  identity: Identity;
}

/**
 * Whether this biometric holds a protocol v2 identity (decision 073), and if so the proof of it that
 * a move or an erasure carries: the v2 round for the biometric (one guess), its commitment looked up
 * in its bucket, and only for a member the v2 round for the ID and both v2 keys' signatures over the
 * challenge, as a v2 erasure makes them (decision 022). Undefined when no v2 identity is there.
 */
export async function findV2Holding(input: { idInfo: string; bioInfo: string }, challenge: string): Promise<HeldV2 | undefined> {
  // Protocol v2's round loads only when asked (decision 066).
  const { oprfRound } = await loadOnDemand(() => import('../oprf/oprf-round.ts'));
  const [output, params] = await Promise.all([oprfRound('bio', input.bioInfo), requestJson<MembersReply>(apiUrls.members())]);
  const identity = deriveIdentity(output);
  const commitment = identity.commitment.toString();
  const bucket = await requestJson<MembersReply>(apiUrls.members(memberBucket(commitment, params.bucketHexChars)));
  if (!bucket.members?.some((member) => member.commitment === commitment)) return undefined;
  const didKey = deriveDidKey(output);
  const oprfId = await oprfRound('id', input.idInfo);
  const { fields, signatures } = signErasure(identity, didKey.secretKey, oprfId, { commitment, did: didKey.did, challenge });
  return { holding: { commitment, did: fields.did, idProof: fields.idProof, signatures }, identity };
}
