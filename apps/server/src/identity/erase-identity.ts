import { isDegenerateCommitment, verifyErasure, type RegistrationSignatures, type ZkEraseFields } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';
import { forgetSignIns } from '../openid/forget-sign-ins.ts';
import { badRequest, challengeUnusable } from '../problem.ts';
import type { Registry } from '../member-tree/member-tree.ts';

/** The three values that name one identity's row; an erasure must present all three (decision 022). */
export interface ErasureClaim {
  commitment: string;
  idTag: string;
  did: string;
  /** The person's pseudonym at every sector: their Sign in with ZeroID records go too (decisions 036 and 048). */
  signInSubjects: string[];
}

declare const signed: unique symbol;
/** An erasure whose signatures were checked, with the ID tag its `idProof` stands for. */
export type SignedErasure = ErasureClaim & { readonly challenge: string; readonly [signed]: true };

/**
 * The zero-knowledge erasure, step one: both keys (from oprf(bio)) signed this erasure's challenge,
 * commitment, DID and ID tag, and the ID tag is HKDF of the `idProof` shown (oprf(id)). Checked before
 * anything is spent or written: a malformed or badly signed erasure is a 400 and costs no attempt.
 * A well-signed erasure of values that are not one registered row is not refused here: it is a
 * Failure, like a failed verification.
 */
export function signedErasure(fields: ZkEraseFields, signatures: RegistrationSignatures): Omit<SignedErasure, 'signInSubjects'> {
  if (isDegenerateCommitment(fields.commitment)) {
    throw badRequest('DEGENERATE_KEY', 'The Semaphore public key is not a valid key (identity, small-order or off the subgroup).');
  }
  const idTag = verifyErasure(fields, signatures);
  if (idTag === undefined) throw badRequest('INVALID_SIGNATURE', 'The erasure signatures do not match the commitment, DID and ID.');
  return { commitment: fields.commitment, idTag, did: fields.did, challenge: fields.challenge } as Omit<SignedErasure, 'signInSubjects'>;
}

/** Step two: the challenge is consumed first (no replay), then the row holding all three values is erased. */
export async function eraseSigned(storage: Storage, registry: Registry, erasure: SignedErasure): Promise<boolean> {
  if (!(await storage.challenges.consume(erasure.challenge))) {
    throw challengeUnusable();
  }
  return eraseIdentity(storage, registry, erasure);
}

/**
 * Erases the identity whose one row holds this commitment, ID tag and DID, in one transaction
 * (`IdentityRepository.erase`), and has this process's tree catch up at once; other processes catch
 * up from the erasure log before their next tree question, and the bytes it freed are scrubbed
 * (`scrubErased`, decision 034). Anything else (a wrong biometric, a wrong ID, an identity already
 * erased) erases nothing and answers false.
 */
export async function eraseIdentity(storage: Storage, registry: Registry, claim: ErasureClaim): Promise<boolean> {
  const erased = await storage.identities.erase({ commitment: claim.commitment, idTag: claim.idTag, did: claim.did });
  if (erased) {
    registry.catchUpSoon();
    await forgetSignIns(storage, claim.signInSubjects);
    // Before the Success goes out: on SQLite the erased values' bytes are then gone from every file.
    await storage.identities.scrubErased();
  }
  return erased;
}
