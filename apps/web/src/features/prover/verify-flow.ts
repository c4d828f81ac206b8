import { generateProof } from '@semaphore-protocol/proof';
import {
  deriveProvingIdentity,
  memberBucket,
  sessionMessage,
  type ChallengeReply,
  type MembersReply,
  type VerifyReply,
} from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { provingArtifacts } from './artifact-cache.ts';
import { normaliseField } from './normalise-field.ts';
import { oprfRound } from './oprf-round.ts';

const FAILURE: VerifyReply = { 'Verification Result': 'Failure' };

/**
 * Zero-knowledge verification (DESIGN §3):
 * 1. the OPRF round gives the identity, while the group's parameters, the proving key and a
 *    challenge load;
 * 2. the k-anonymous bucket of the commitment (the whole group, fetched during step 1, while the
 *    group is small); absent from it, the person is not registered, and nothing more is sent;
 * 3. a Semaphore proof whose message and scope are the one-time challenge;
 * 4. the proof goes to POST /verify. The biometric never leaves this worker.
 */
export async function verifyFlow(
  input: { bioInfo: string; session?: string | undefined },
  progress: (p: Progress) => void,
): Promise<VerifyReply> {
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  const paramsRequest = requestJson<MembersReply>(apiUrls.members());
  const artifactsRequest = paramsRequest.then((p) =>
    provingArtifacts(p.depth, (loaded, total) => progress({ stage: 'downloading', loaded, total })),
  );
  artifactsRequest.catch(() => undefined); // awaited below; never an unhandled rejection
  // The challenge lives for minutes: fetch it now rather than after the bucket.
  const challengeRequest = requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' });
  challengeRequest.catch(() => undefined);
  // While the group is one bucket (fewer than 1,024 members), the bucket is known before the
  // identity: fetch it alongside the OPRF round instead of after.
  const wholeGroupRequest = paramsRequest.then((p) =>
    p.bucketHexChars === 0 ? requestJson<MembersReply>(apiUrls.members('')) : undefined,
  );
  wholeGroupRequest.catch(() => undefined);
  const [oprfBio, params] = await Promise.all([oprfRound('bio', bioInfo), paramsRequest]);

  // Only what the proof needs of the identity (secret scalar, commitment), without its public key.
  const identity = deriveProvingIdentity(oprfBio);
  const commitment = identity.commitment.toString();
  const bucket =
    (await wholeGroupRequest.catch(() => undefined)) ??
    (await requestJson<MembersReply>(apiUrls.members(memberBucket(commitment, params.bucketHexChars))));
  const member = bucket.members?.find((m) => m.commitment === commitment);
  if (!member) {
    // Not registered, known here without a proof: tell the session, so the screen that showed the
    // code stops waiting at once. It learns only "failure", as it would from a failed proof.
    if (input.session !== undefined) await requestJson(apiUrls.sessionFailure(input.session), { method: 'POST' }).catch(() => undefined);
    return FAILURE;
  }

  // The tree may have grown past a power of two since the parameters came: then prove at the new depth.
  const artifactsForDepth =
    bucket.depth === params.depth
      ? artifactsRequest
      : provingArtifacts(bucket.depth, (loaded, total) => progress({ stage: 'downloading', loaded, total }));
  const [artifacts, { challenge }] = await Promise.all([artifactsForDepth, challengeRequest]);
  progress({ stage: 'proving' });
  const merkleProof = {
    root: BigInt(bucket.root),
    leaf: identity.commitment,
    index: member.proofIndex,
    siblings: member.siblings.map(BigInt),
  };
  // snarkjs takes bytes as well as URLs; its types only say string.
  // For a cross-device session the message also binds the session, so the proof completes only it.
  const message = input.session === undefined ? challenge : sessionMessage(challenge, input.session);
  const proof = await generateProof(identity as Parameters<typeof generateProof>[0], merkleProof, message, challenge, bucket.depth, {
    wasm: artifacts.wasm as unknown as string,
    zkey: artifacts.zkey as unknown as string,
  });
  progress({ stage: 'sending' });
  return requestJson<VerifyReply>(apiUrls.verify(), {
    method: 'POST',
    body: input.session === undefined ? { proof } : { proof, session: input.session },
  });
}
