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

/** What a signed erasure names: one identity's commitment, ID tag and DID, and the person's pseudonyms. */
export interface ErasureClaim {
  commitment: string;
  idTag: string;
  /** The DID the person signed with: checked by its signature, but not matched against the row (decision 073). */
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
 * anything is spent or written: a malformed or badly signed erasure is a 400 and costs no guess.
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

/**
 * Step two: the challenge is consumed first (no replay), then the rows holding each erasure's
 * commitment and ID tag are erased together, or none is (a v3 erasure with the person's v2 identity,
 * decision 073, both signed over the one challenge).
 */
export async function eraseSigned(storage: Storage, registry: Registry, erasures: readonly SignedErasure[]): Promise<boolean> {
  if (!(await storage.challenges.consume(erasures[0]!.challenge))) {
    throw challengeUnusable();
  }
  const identities = erasures.map(({ commitment, idTag }) => ({ commitment, idTag }));
  return eraseIdentities(
    storage,
    registry,
    identities,
    erasures.flatMap((erasure) => erasure.signInSubjects),
  );
}

/**
 * Erases, in one transaction (`IdentityRepository.erase`), the row holding each commitment and ID
 * tag pair, whatever DID it was stored with (decision 073: the person proves the commitment's secret
 * and the ID's OPRF output; a registrant could name any DID), and has this process's tree catch up
 * at once; other processes catch up from the erasure log before their next tree question, and the
 * bytes it freed are scrubbed (`scrubErased`, decision 034). `every`: all of them or nothing, false
 * unless each pair is a row's; `any` (the raw path, which derived each version the person might
 * hold): every one that is, false when none is. A wrong biometric, a wrong ID or an identity already
 * erased erases nothing and answers false.
 */
export async function eraseIdentities(
  storage: Storage,
  registry: Registry,
  identities: ReadonlyArray<{ commitment: string; idTag: string }>,
  signInSubjects: string[],
  require: 'every' | 'any' = 'every',
): Promise<boolean> {
  const erased = await storage.identities.erase(identities, require);
  if (erased) {
    registry.catchUpSoon();
    await forgetSignIns(storage, signInSubjects);
    // Before the Success goes out: on SQLite the erased values' bytes are then gone from every file.
    await storage.identities.scrubErased();
  }
  return erased;
}
