import { deriveIdTag, signRegistration, type RegisterReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { deriveSigningKeys } from './derive-signing-keys.ts';

/**
 * Zero-knowledge registration, entirely on this device: the Semaphore identity, did:key and ID tag,
 * and signatures with both keys over a fresh challenge. Only those derived values and signatures
 * are sent.
 */
export async function registerFlow(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<RegisterReply> {
  const { oprfId, identity, didKey, challenge } = await deriveSigningKeys(input, progress);
  const fields = { commitment: identity.commitment.toString(), idTag: deriveIdTag(oprfId), did: didKey.did, challenge };
  progress({ stage: 'sending' });
  return requestJson<RegisterReply>(apiUrls.register(), {
    method: 'POST',
    body: { ...fields, signatures: signRegistration(identity, didKey.secretKey, fields) },
  });
}
