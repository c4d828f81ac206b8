import { deriveDidKey, deriveIdTag, deriveIdentity, signRegistration, type ChallengeReply, type RegisterReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { normaliseField } from './normalise-field.ts';
import { oprfRound } from './oprf-round.ts';

/**
 * Zero-knowledge registration, entirely on this device: OPRF rounds for the biometric and the ID,
 * then the Semaphore identity, did:key and ID tag, and signatures with both keys over a fresh
 * challenge. Only those derived values and signatures are sent.
 */
export async function registerFlow(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<RegisterReply> {
  const idInfo = normaliseField(input.idInfo, 'The ID');
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  const [oprfBio, oprfId, { challenge }] = await Promise.all([
    oprfRound('bio', bioInfo),
    oprfRound('id', idInfo),
    requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' }),
  ]);
  const identity = deriveIdentity(oprfBio);
  const didKey = deriveDidKey(oprfBio);
  const fields = { commitment: identity.commitment.toString(), idTag: deriveIdTag(oprfId), did: didKey.did, challenge };
  progress({ stage: 'sending' });
  return requestJson<RegisterReply>(apiUrls.register(), {
    method: 'POST',
    body: { ...fields, signatures: signRegistration(identity, didKey.secretKey, fields) },
  });
}
