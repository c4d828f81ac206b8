import { verifyRegistration, type ZkRegisterFields, type RegistrationSignatures } from '@zeroid/protocol';
import type { RegisterOutcome, Storage } from '../storage/types.ts';
import { badRequest } from './problem.ts';

/**
 * The zero-knowledge registration: the browser derived its commitment, DID and ID tag through the
 * OPRF, and signs a fresh challenge with both the Semaphore key and the DID key, proving it holds
 * the secrets behind them. The challenge is consumed first, so a captured body cannot be replayed.
 * Nothing here proves how the values were derived: a client that skips the OPRF can register values
 * of its own choosing, so uniqueness on this path rests on clients following the protocol (threat
 * model, "Registration binding"; decision 016).
 */
export async function registerCommitment(
  storage: Storage,
  fields: ZkRegisterFields,
  signatures: RegistrationSignatures,
): Promise<RegisterOutcome> {
  if (!(await storage.challenges.consume(fields.challenge))) {
    throw badRequest('CHALLENGE_UNUSABLE', 'The challenge is unknown, expired or already used. Please try again.');
  }
  if (!verifyRegistration(fields, signatures)) {
    throw badRequest('INVALID_SIGNATURE', 'The registration signatures do not match the commitment and DID.');
  }
  return storage.identities.register({ commitment: fields.commitment, idTag: fields.idTag, did: fields.did });
}
