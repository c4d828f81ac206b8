import { isDegenerateRegistration, verifyRegistration, type ZkRegisterFields, type RegistrationSignatures } from '@zeroid/protocol';
import type { RegisterOutcome, Storage } from '../storage/types.ts';
import { badRequest, challengeUnusable } from '../problem.ts';

declare const signed: unique symbol;
/** Registration fields whose signatures were checked: the only input `registerCommitment` takes. */
export type SignedRegistration = ZkRegisterFields & { readonly [signed]: true };

/**
 * The zero-knowledge registration, step one: the browser derived its commitment, DID and ID tag
 * through the OPRF, and signs a fresh challenge with both the Semaphore key and the DID key, proving
 * it holds the secrets behind them. A key outside Baby Jubjub's prime-order subgroup, or the
 * commitment of a small-order point, is refused. Checked before anything is spent or written, so a
 * malformed registration costs no attempt and consumes no challenge.
 *
 * Nothing here proves how the values were derived: a client that skips the OPRF can register values
 * of its own choosing, so uniqueness on this path rests on clients following the protocol (threat
 * model, "Registration binding"; decision 016).
 */
export function signedRegistration(fields: ZkRegisterFields, signatures: RegistrationSignatures): SignedRegistration {
  // Before the signatures: a small-order key signs without any secret, and the identity point's
  // commitment, poseidon2(0, 1), is a leaf anyone could prove with the secret 0.
  if (isDegenerateRegistration(fields, signatures)) {
    throw badRequest('DEGENERATE_KEY', 'The Semaphore public key is not a valid key (identity, small-order or off the subgroup).');
  }
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
    throw challengeUnusable();
  }
  return storage.identities.register({ commitment: fields.commitment, idTag: fields.idTag, did: fields.did });
}
