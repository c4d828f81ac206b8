import { deriveDidKey, deriveIdentity, signErasure, type ChallengeReply, type EraseReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { normaliseField } from './normalise-field.ts';
import { oprfRound } from './oprf-round.ts';

/**
 * Zero-knowledge erasure (decision 022), entirely on this device, as registration derives: OPRF
 * rounds for the biometric and the ID, then the Semaphore identity and did:key, which sign a fresh
 * challenge with the commitment, DID and ID tag. The ID's OPRF output goes along: its HKDF is the ID
 * tag, so the server erases only when the ID matches too. Nothing raw is sent.
 */
export async function eraseFlow(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<EraseReply> {
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
  const { fields, signatures } = signErasure(identity, didKey.secretKey, oprfId, {
    commitment: identity.commitment.toString(),
    did: didKey.did,
    challenge,
  });
  progress({ stage: 'sending' });
  return requestJson<EraseReply>(apiUrls.erase(), { method: 'POST', body: { ...fields, signatures } });
}
