import { generateProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import {
  deriveDidKey,
  deriveIdentity,
  signErasure,
  type ChallengeReply,
  type EraseReply,
  type MembersReply,
  type Static,
  type SignInScopesReply,
} from '@zeroid/protocol';
import { deriveRegistration, signWithDid, v3ErasureMessage, type ZkEraseV3Body } from '@zeroid/protocol/v3';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { provingArtifacts } from '../../prover/artifact-cache.ts';
import { locateIdentity, type ProvingIdentity } from '../../prover/locate-identity.ts';
import { normaliseField } from '../../shared/normalise-field.ts';
import { loadOnDemand } from '../../shared/load-on-demand.ts';
import { oprfRoundV3 } from '../../oprf/oprf-round-v3.ts';
import { findV2Holding } from '../../prover/v2-holding.ts';

/** The group of one identity alone: its root is the commitment itself (decision 048). */
const OWN_GROUP_DEPTH = 1;

/**
 * Zero-knowledge erasure (decisions 022, 048 and 056), entirely on this device. Which identity the
 * biometric holds is found as verification finds it (`locateIdentity`: v3 first, then v2).
 * - v3: the ID's OPRF output goes along (its Poseidon is the ID tag, so the server erases only when
 *   the ID matches too), with a Semaphore proof in the group of this identity alone whose message and
 *   scope are the challenge (v3 has no EdDSA key to sign with), and the DID key's signature.
 *   A v2 identity of the same texts goes in the same body and the same transaction (decision 073).
 * - v2 (and a biometric registered under neither): the Semaphore identity and did:key sign a fresh
 *   challenge with the commitment, DID and ID tag, and the ID's v2 OPRF output goes along, as before.
 * So that the server can delete this person's Sign in with ZeroID records and tokens, a Semaphore
 * proof per registered sector goes too, in the group of this identity alone and bound to the
 * challenge: its nullifier is the person's pseudonym there. The secret never leaves the device;
 * nothing raw is sent.
 */
export async function proveErasure(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<EraseReply> {
  const idInfo = normaliseField(input.idInfo, 'The ID');
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  const scopesRequest = requestJson<Static<typeof SignInScopesReply>>(apiUrls.signInScopes());
  scopesRequest.catch(() => undefined); // awaited below; never an unhandled rejection
  const challengeRequest = requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' });
  challengeRequest.catch(() => undefined);
  const located = await locateIdentity(bioInfo, requestJson<MembersReply>(apiUrls.members()));
  let body: object;
  if (located.version === 3) {
    const [{ output: idOutput }, { challenge }] = await Promise.all([oprfRoundV3('id', idInfo), challengeRequest]);
    const { commitment, didKey } = deriveRegistration(located.output, idOutput);
    const fields = { commitment, did: didKey.did, idOutput: idOutput.toString(), challenge };
    // A person who holds a v2 identity too (registered on this device before decision 073) erases both at once.
    const held = await findV2Holding({ idInfo, bioInfo }, challenge);
    const [ownProof] = await ownGroupProofs(located.identity, challenge, [challenge], progress);
    const { scopes } = await scopesRequest;
    const signInProofs = await ownGroupProofs(located.identity, challenge, scopes, progress);
    body = {
      ...fields,
      ownProof: ownProof!,
      didSignature: signWithDid(v3ErasureMessage(fields), didKey.secretKey),
      signInProofs,
      ...(held ? { v2: { ...held.holding, signInProofs: await ownGroupProofs(held.identity, challenge, scopes, progress) } } : {}),
    } satisfies ZkEraseV3Body;
  } else {
    const { oprfRound } = await loadOnDemand(() => import('../../oprf/oprf-round.ts'));
    const [oprfId, { challenge }] = await Promise.all([oprfRound('id', idInfo), challengeRequest]);
    const identity = deriveIdentity(located.output);
    const didKey = deriveDidKey(located.output);
    const { fields, signatures } = signErasure(identity, didKey.secretKey, oprfId, {
      commitment: identity.commitment.toString(),
      did: didKey.did,
      challenge,
    });
    const signInProofs = await ownGroupProofs(identity, challenge, (await scopesRequest).scopes, progress);
    body = { ...fields, signatures, signInProofs };
  }
  progress({ stage: 'sending' });
  return requestJson<EraseReply>(apiUrls.erase(), { method: 'POST', body });
}

/**
 * One Semaphore proof per scope in the group of this identity alone (depth 1: its root is the
 * commitment), each with the challenge as message: the sign-in sectors' pseudonyms (decision 048),
 * or v3's proof of the secret (scope = challenge).
 */
async function ownGroupProofs(
  identity: ProvingIdentity,
  challenge: string,
  scopes: readonly string[],
  progress: (p: Progress) => void,
): Promise<SemaphoreProof[]> {
  if (scopes.length === 0) return [];
  const artifacts = await provingArtifacts(OWN_GROUP_DEPTH, (loaded, total) => progress({ stage: 'downloading', loaded, total }));
  progress({ stage: 'proving' });
  const proofs: SemaphoreProof[] = [];
  for (const scope of scopes) {
    // A fresh group each time: generateProof pads `siblings` in place, which would change the root it proves.
    const ownGroup = { root: identity.commitment, leaf: identity.commitment, index: 0, siblings: [] };
    // snarkjs takes bytes as well as URLs; its types only say string.
    proofs.push(
      await generateProof(identity as Parameters<typeof generateProof>[0], ownGroup, challenge, scope, OWN_GROUP_DEPTH, {
        wasm: artifacts.wasm as unknown as string,
        zkey: artifacts.zkey as unknown as string,
      }),
    );
  }
  return proofs;
}
