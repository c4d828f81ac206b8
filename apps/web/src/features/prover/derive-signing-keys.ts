import { deriveDidKey, deriveIdentity, type ChallengeReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { normaliseField } from './normalise-field.ts';
import { oprfRound } from './oprf-round.ts';

/**
 * What registration and erasure both start with, entirely on this device: OPRF rounds for the
 * biometric and the ID, and a fresh challenge, at once; then the Semaphore identity and did:key
 * (both from the biometric), the keys that sign the challenge. `oprfId` is the ID's OPRF output.
 */
export async function deriveSigningKeys(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void) {
  const idInfo = normaliseField(input.idInfo, 'The ID');
  const bioInfo = normaliseField(input.bioInfo, 'The biometric data');
  progress({ stage: 'deriving' });
  const [oprfBio, oprfId, { challenge }] = await Promise.all([
    oprfRound('bio', bioInfo),
    oprfRound('id', idInfo),
    requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' }),
  ]);
  return { oprfId, identity: deriveIdentity(oprfBio), didKey: deriveDidKey(oprfBio), challenge };
}
