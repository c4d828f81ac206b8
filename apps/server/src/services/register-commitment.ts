import { verifyRegistration, type ZkRegisterFields, type RegistrationSignatures } from '@zeroid/protocol';
import type { RegisterOutcome, Storage } from '../storage/types.ts';
import { badRequest } from '../http/problem.ts';

declare const signed: unique symbol;
/** Registration fields whose signatures were checked: the only input `registerCommitment` takes. */
export type SignedRegistration = ZkRegisterFields & { readonly [signed]: true };

/**
 * The zero-knowledge registration, step one: the browser derived its commitment, DID and ID tag
 * through the OPRF, and signs a fresh challenge with both the Semaphore key and the DID key, proving
 * it holds the secrets behind them. Checked before anything is spent or written, so a malformed
 * registration costs no attempt and consumes no challenge.
 */
export function signedRegistration(fields: ZkRegisterFields, signatures: RegistrationSignatures): SignedRegistration {
  if (!verifyRegistration(fields, signatures)) {
    throw badRequest('INVALID_SIGNATURE', 'The registration signatures do not match the commitment and DID.');
  }
  return fields as SignedRegistration;
}

/**
 * Step two: the challenge is consumed first, so a captured body cannot be replayed, then the
 * identity is written.
 */
export async function registerCommitment(storage: Storage, fields: SignedRegistration): Promise<RegisterOutcome> {
  if (!(await storage.challenges.consume(fields.challenge))) {
    throw badRequest('CHALLENGE_UNUSABLE', 'The challenge is unknown, expired or already used. Please try again.');
  }
  return storage.identities.register({ commitment: fields.commitment, idTag: fields.idTag, did: fields.did });
}
