import { signErasure, type EraseReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { deriveSigningKeys } from './derive-signing-keys.ts';

/**
 * Zero-knowledge erasure (decision 022), entirely on this device, as registration derives: the
 * Semaphore identity and did:key sign a fresh challenge with the commitment, DID and ID tag. The
 * ID's OPRF output goes along: its HKDF is the ID tag, so the server erases only when the ID
 * matches too; and the identity's secret, with which the server finds its sign-in records. Nothing
 * raw is sent.
 */
export async function eraseFlow(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<EraseReply> {
  const { oprfId, identity, didKey, challenge } = await deriveSigningKeys(input, progress);
  const { fields, signatures } = signErasure(identity, didKey.secretKey, oprfId, {
    commitment: identity.commitment.toString(),
    did: didKey.did,
    challenge,
  });
  progress({ stage: 'sending' });
  // The secret goes with the identity (decision 036): the server checks it against the commitment and
  // uses it, once, to delete this person's Sign in with ZeroID records and tokens at every site.
  return requestJson<EraseReply>(apiUrls.erase(), {
    method: 'POST',
    body: { ...fields, signatures, secretScalar: identity.secretScalar.toString() },
  });
}
