import { generateProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import type { MembersReply } from '@zeroid/protocol';
import type { Progress } from '../shared/progress.ts';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { provingArtifacts } from './artifact-cache.ts';
import { downloadProgress } from './download-progress.ts';
import { locateIdentity } from './locate-identity.ts';
import { normaliseField } from '../shared/normalise-field.ts';
import { timelineMark } from '../shared/timeline-mark.ts';

/** What a proof is bound to: its message and scope (a verification's challenge, or a site's sector). */
export interface ProofBinding {
  message: string;
  scope: string;
}

/**
 * A membership proof, and the secret scalar and commitment of the identity it proved: a second proof
 * about the same person needs them (the credential at a sign-in, decision 089). They stay in this worker.
 */
export interface MembershipProof {
  proof: SemaphoreProof;
  secret: bigint;
  commitment: bigint;
}

/**
 * The part every zero-knowledge flow shares (DESIGN §3):
 * 1. the OPRF round gives the identity (v3 first, then v2 for a person registered before it:
 *    `locateIdentity`), while the group's parameters and the proving key load;
 * 2. the k-anonymous bucket of the commitment; absent from it, the person is not registered:
 *    undefined, nothing more is sent;
 * 3. a Semaphore proof bound to what `bind` gives, asked for once the input is known to be valid and
 *    awaited only when the proof starts, so a challenge loads meanwhile. The biometric never leaves
 *    this worker.
 */
export async function proveMembership(
  rawBioInfo: string,
  bind: () => Promise<ProofBinding>,
  progress: (p: Progress) => void,
): Promise<MembershipProof | undefined> {
  const bioInfo = normaliseField(rawBioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  const binding = bind();
  binding.catch(() => undefined); // awaited below; never an unhandled rejection
  const paramsRequest = requestJson<MembersReply>(apiUrls.members());
  // Prepared ahead (decision 043), the download may be done or half done: the bar shows what is left.
  const onBytes = downloadProgress(progress);
  const artifactsRequest = paramsRequest.then((p) => provingArtifacts(p.depth, onBytes));
  artifactsRequest.catch(() => undefined);
  const [{ identity, bucket, member }, params] = await Promise.all([locateIdentity(bioInfo, paramsRequest), paramsRequest]);
  if (!member) return undefined;

  // The tree may have grown past a power of two since the parameters came: then prove at the new depth.
  const artifactsForDepth = bucket.depth === params.depth ? artifactsRequest : provingArtifacts(bucket.depth, onBytes);
  const [artifacts, { message, scope }] = await Promise.all([artifactsForDepth, binding]);
  progress({ stage: 'proving' });
  timelineMark('proof-started');
  const merkleProof = {
    root: BigInt(bucket.root),
    leaf: identity.commitment,
    index: member.proofIndex,
    siblings: member.siblings.map(BigInt),
  };
  // snarkjs takes bytes as well as URLs; its types only say string.
  const proof = await generateProof(identity as Parameters<typeof generateProof>[0], merkleProof, message, scope, bucket.depth, {
    wasm: artifacts.wasm as unknown as string,
    zkey: artifacts.zkey as unknown as string,
  });
  timelineMark('proof-done');
  return { proof, secret: identity.secretScalar, commitment: identity.commitment };
}
