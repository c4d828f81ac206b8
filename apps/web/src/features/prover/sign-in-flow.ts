import { generateProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { deriveProvingIdentity, memberBucket, signInMessage, type MembersReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { provingArtifacts } from './artifact-cache.ts';
import { normaliseField } from './normalise-field.ts';
import { oprfRound } from './oprf-round.ts';

/**
 * Sign in with ZeroID (decision 023): the verification flow of `verifyFlow`, with the scope of the
 * site's sector and a message that binds the server's one-time challenge to this sign-in, so the
 * proof's nullifier is the person's pseudonym at that site. Undefined when the biometric is not
 * registered (not in its bucket): nothing is proven and the site hears access_denied.
 */
/**
 * Starts what a sign-in needs before the biometric is typed: the group's parameters and the proving
 * artifacts for its depth (from the Cache API after the first visit, checked against their SHA-256).
 * A sign-in screen is a fresh page with a fresh worker, so without this the proof would wait for them.
 */
export function prepareSignIn(): void {
  void requestJson<MembersReply>(apiUrls.members()).then(
    (p) => provingArtifacts(p.depth),
    () => undefined,
  );
}

export async function signInFlow(
  input: { bioInfo: string; uid: string; scope: string; challenge: string },
  progress: (p: Progress) => void,
): Promise<SemaphoreProof | undefined> {
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  const paramsRequest = requestJson<MembersReply>(apiUrls.members());
  const artifactsRequest = paramsRequest.then((p) =>
    provingArtifacts(p.depth, (loaded, total) => progress({ stage: 'downloading', loaded, total })),
  );
  artifactsRequest.catch(() => undefined); // awaited below; never an unhandled rejection
  const wholeGroupRequest = paramsRequest.then((p) =>
    p.bucketHexChars === 0 ? requestJson<MembersReply>(apiUrls.members('')) : undefined,
  );
  wholeGroupRequest.catch(() => undefined);
  const [oprfBio, params] = await Promise.all([oprfRound('bio', bioInfo), paramsRequest]);

  const identity = deriveProvingIdentity(oprfBio);
  const commitment = identity.commitment.toString();
  const bucket =
    (await wholeGroupRequest.catch(() => undefined)) ??
    (await requestJson<MembersReply>(apiUrls.members(memberBucket(commitment, params.bucketHexChars))));
  const member = bucket.members?.find((m) => m.commitment === commitment);
  if (!member) return undefined;

  const artifacts =
    bucket.depth === params.depth
      ? await artifactsRequest
      : await provingArtifacts(bucket.depth, (loaded, total) => progress({ stage: 'downloading', loaded, total }));
  progress({ stage: 'proving' });
  const merkleProof = {
    root: BigInt(bucket.root),
    leaf: identity.commitment,
    index: member.proofIndex,
    siblings: member.siblings.map(BigInt),
  };
  return generateProof(
    identity as Parameters<typeof generateProof>[0],
    merkleProof,
    signInMessage(input.challenge, input.uid),
    input.scope,
    bucket.depth,
    { wasm: artifacts.wasm as unknown as string, zkey: artifacts.zkey as unknown as string },
  );
}
