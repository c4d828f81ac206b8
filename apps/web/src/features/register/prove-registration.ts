import { packGroth16Proof } from '@semaphore-protocol/proof';
import type { ChallengeReply, RegisterReply } from '@zeroid/protocol';
import { credentialIdTag, credentialProofInput, dayOf } from '@zeroid/protocol/credential';
import {
  deriveRegistration,
  registrationStatement,
  registrationProofInput,
  signWithDid,
  v3RegistrationMessage,
  type ZkRegisterV3Body,
} from '@zeroid/protocol/v3';
import { groth16 } from 'snarkjs';
import type { Progress } from '../../shared/progress.ts';
import { ApiError, requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { timelineMark } from '../../shared/timeline-mark.ts';
import { credentialRegistrationArtifacts, registrationArtifacts } from '../../prover/artifact-cache.ts';
import { checkCredential } from './check-credential.ts';
import { downloadProgress } from '../../prover/download-progress.ts';
import { normaliseField } from '../../shared/normalise-field.ts';
import { oprfRoundV3 } from '../../oprf/oprf-round-v3.ts';
import { findV2Holding } from '../../prover/v2-holding.ts';
import type { MoveRefused } from '../../prover/messages.ts';

/**
 * Zero-knowledge registration under protocol v3 (decision 056), entirely on this device: one OPRF
 * round for the biometric and one for the ID (each answer's DLEQ proof checked), a fresh challenge,
 * the v3 derivations (commitment, ID tag, did:key), then a Groth16 proof of the registration circuit
 * that they are the OPRF outputs of what was blinded, bound to the challenge and the DID, and the
 * DID key's signature. Only blinded points, the nodes' answers, derived values, the proof and the
 * signature are sent; the server rebuilds the proof's public inputs from what it checks itself. A
 * person who holds a v2 identity moves it here (decision 073): its proof goes with the registration.
 * An ID that is a credential (decision 085) is checked against GET /issuers before anything is sent,
 * its ID goes through the ID round, and the credential circuit proves that a trusted issuer signed it
 * and that it has not expired on the challenge's day: the credential itself never leaves this device.
 * The proof also outputs the credential leaf (decision 086), which is sent as the proof's own third
 * public signal: the server files the identity under it, and a proof holds for no other leaf.
 */
export async function proveRegistration(
  input: { idInfo: string; bioInfo: string },
  progress: (p: Progress) => void,
): Promise<RegisterReply | MoveRefused> {
  const idInfo = normaliseField(input.idInfo, 'The ID');
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  // A credential that this server would refuse is refused here, before any round or proof.
  const credential = await checkCredential(idInfo);
  progress({ stage: 'deriving' });
  // Prepared when the page opened; the bar shows what is left of it.
  const artifactsRequest = (credential ? credentialRegistrationArtifacts : registrationArtifacts)(downloadProgress(progress));
  artifactsRequest.catch(() => undefined); // awaited below; never an unhandled rejection
  const challengeRequest = requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' });
  // A person who holds a v2 identity moves it in this registration (decision 073): never both, never neither.
  // No v2 identity holds a credential: they came after v2.
  const v2Request = credential
    ? Promise.resolve(undefined)
    : challengeRequest.then(({ challenge }) => findV2Holding({ idInfo, bioInfo }, challenge));
  v2Request.catch(() => undefined); // awaited below
  const idText = credential ? credential.credential.id : idInfo;
  const [bio, id, { challenge, expiresAt }] = await Promise.all([oprfRoundV3('bio', bioInfo), oprfRoundV3('id', idText), challengeRequest]);
  timelineMark('oprf-round-done');
  const registration = deriveRegistration(bio.output, id.output);
  const idTag = credential ? credentialIdTag(credential.credential.issuer, id.output) : registration.idTag;
  const fields = { commitment: registration.commitment, idTag, did: registration.didKey.did, challenge };
  const statement = registrationStatement({ bio, id }, bio.groupKey, challenge, fields.did);
  // The day the server accepts: the challenge's expiry day, by the server's clock, not this device's.
  const claim = credential && { today: dayOf(new Date(expiresAt)), issuersRoot: credential.tree.root.toString() };
  const proofInput =
    credential && claim
      ? credentialProofInput(bio.query, id.query, credential.credential, credential.tree.pathOf(credential.issuerIndex), {
          ...statement,
          today: claim.today,
          issuersRoot: credential.tree.root,
        })
      : registrationProofInput(bio.query, id.query, statement);
  const artifacts = await artifactsRequest;
  progress({ stage: 'proving' });
  timelineMark('proof-started');
  const { proof, publicSignals } = await groth16.fullProve(proofInput, artifacts.wasm, artifacts.zkey);
  timelineMark('proof-done');
  const held = await v2Request;
  const body: ZkRegisterV3Body = {
    ...fields,
    bio: bio.round,
    id: id.round,
    proof: packGroth16Proof(proof).map(String),
    didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
    ...(held ? { moveFromV2: held.holding } : {}),
    // The credential circuit's signals: commitment, idTag, credentialLeaf, then its inputs.
    ...(claim ? { credential: { ...claim, leaf: publicSignals[2]! } } : {}),
  };
  progress({ stage: 'sending' });
  try {
    return await requestJson<RegisterReply>(apiUrls.register(), { method: 'POST', body });
  } catch (error) {
    // Someone registered under this ID or biometric under v3: only the raw move, which the server
    // derives from both texts, may evict them. The page offers it; nothing was changed.
    if (error instanceof ApiError && error.code === 'MOVE_WOULD_EVICT') return { moveRefused: true, message: error.message };
    throw error;
  }
}
