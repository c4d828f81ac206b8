import {
  isDegenerateCommitment,
  isFieldElement,
  verifyDidSignature,
  verifyErasure,
  type RegistrationSignatures,
  type ZkEraseFields,
} from '@zeroid/protocol';
import { idTagV3, v3ErasureMessage, type ZkEraseV3Body } from '@zeroid/protocol/v3';
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

/**
 * The same step one for a protocol v3 identity (decision 056), which has no EdDSA key: the DID's
 * Ed25519 signature over `v3ErasureMessage`, and the ID tag recomputed from the ID's v3 output y_id
 * shown (Poseidon(ID_TAG_LABEL, y_id), which the stored tag alone would not prove, as for v2's
 * `idProof`). Possession of the Semaphore secret is proven by the body's `ownProof`, a Groth16 proof
 * checked with the sign-in proofs once the challenge is known to be usable (`provenSignInSubjects`).
 */
export function signedErasureV3(
  fields: Pick<ZkEraseV3Body, 'commitment' | 'did' | 'idOutput' | 'challenge' | 'didSignature'>,
): Omit<SignedErasure, 'signInSubjects'> {
  const { commitment, did, idOutput, challenge, didSignature } = fields;
  if (isDegenerateCommitment(commitment)) {
    throw badRequest('DEGENERATE_KEY', 'The Semaphore public key is not a valid key (identity, small-order or off the subgroup).');
  }
  if (!isFieldElement(idOutput)) throw badRequest('INVALID_ID_OUTPUT', 'The ID output is not a canonical decimal below the field modulus.');
  if (!verifyDidSignature(did, v3ErasureMessage({ challenge, commitment, idOutput, did }), didSignature)) {
    throw badRequest('INVALID_SIGNATURE', 'The erasure signature does not match the commitment, DID and ID.');
  }
  return { commitment, idTag: idTagV3(BigInt(idOutput)).idTag, did, challenge } as Omit<SignedErasure, 'signInSubjects'>;
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
