import { packGroth16Proof } from '@semaphore-protocol/proof';
import type { ChallengeReply, RegisterReply } from '@zeroid/protocol';
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
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { timelineMark } from '../../shared/timeline-mark.ts';
import { registrationArtifacts } from './artifact-cache.ts';
import { downloadProgress } from './download-progress.ts';
import { normaliseField } from './normalise-field.ts';
import { oprfRoundV3 } from './oprf-round-v3.ts';

/**
 * Zero-knowledge registration under protocol v3 (decision 056), entirely on this device: one OPRF
 * round for the biometric and one for the ID (each answer's DLEQ proof checked), a fresh challenge,
 * the v3 derivations (commitment, ID tag, did:key), then a Groth16 proof of the registration circuit
 * that they are the OPRF outputs of what was blinded, bound to the challenge and the DID, and the
 * DID key's signature. Only blinded points, the nodes' answers, derived values, the proof and the
 * signature are sent; the server rebuilds the proof's public inputs from what it checks itself.
 */
export async function registerFlow(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<RegisterReply> {
  const idInfo = normaliseField(input.idInfo, 'The ID');
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  // Prepared when the page opened; the bar shows what is left of it.
  const artifactsRequest = registrationArtifacts(downloadProgress(progress));
  artifactsRequest.catch(() => undefined); // awaited below; never an unhandled rejection
  const [bio, id, { challenge }] = await Promise.all([
    oprfRoundV3('bio', bioInfo),
    oprfRoundV3('id', idInfo),
    requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' }),
  ]);
  timelineMark('oprf-round-done');
  const registration = deriveRegistration(bio.output, id.output);
  const fields = { commitment: registration.commitment, idTag: registration.idTag, did: registration.didKey.did, challenge };
  const proofInput = registrationProofInput(bio.query, id.query, registrationStatement({ bio, id }, bio.groupKey, challenge, fields.did));
  const artifacts = await artifactsRequest;
  progress({ stage: 'proving' });
  timelineMark('proof-started');
  const { proof } = await groth16.fullProve(proofInput, artifacts.wasm, artifacts.zkey);
  timelineMark('proof-done');
  const body: ZkRegisterV3Body = {
    ...fields,
    bio: bio.round,
    id: id.round,
    proof: packGroth16Proof(proof).map(String),
    didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
  };
  progress({ stage: 'sending' });
  return requestJson<RegisterReply>(apiUrls.register(), { method: 'POST', body });
}
