import { parseIssuerKey } from '../credential/issuer-key.ts';
import { ProtocolInputError } from '../errors.ts';
import { isFieldElement } from '../field.ts';
import { semaphoreHash } from '../semaphore-hash.ts';

/** The credential tree's greatest depth the sign-in circuit proves for: 2²⁴ credential leaves. */
export const SIGN_IN_CREDENTIAL_MAX_DEPTH = 24;

/** What the device knows to prove that its credential leaf is in the credential tree. */
export interface SignInCredentialWitness {
  /** The identity's Semaphore v4 secret scalar (`Identity.secretScalar`): below 2²⁵¹. Never leaves the device. */
  secret: bigint;
  /** The issuer's public key, as `npm run issuer -- public-key` prints it. */
  issuerPublicKey: string;
  /**
   * The LeanIMT proof's index, `proofIndex` of GET /credential-members (`LeanIMT.generateProof(i).index`):
   * one bit per sibling, which is not the leaf's position when a level had no sibling.
   */
  proofIndex: number;
  /** The LeanIMT proof's siblings, leaf upwards: its length is the proof's depth, 0 to 24. */
  siblings: readonly (string | bigint)[];
  /** The sign-in's scope and message, exactly as its Semaphore proof is given them (`signInScope`, `signInMessage`). */
  scope: string | bigint;
  message: string | bigint;
}

/** The circuit's input (`circuits/sign-in-credential.circom`), numbers in decimal. */
export type SignInCredentialInput = Record<string, string | string[]>;

/**
 * The prover's input for `circuits/sign-in-credential.circom` (decision 087): the proof that the
 * credential leaf Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret) of the issuer A is in the credential
 * tree, and that its nullifier is Poseidon(scope, secret), the one the sign-in's Semaphore proof has.
 * The secret, the leaf and the path are private inputs; A, and the scope and message as Semaphore's
 * proof sees them (Semaphore's hash of each), are public. A leaf not in the tree, another issuer or
 * another secret has no witness.
 *
 * @throws ProtocolInputError('INVALID_PROOF') for a key that is not a valid issuer key, a proof longer
 * than 24 levels, an index that does not fit it, a sibling, the secret, the scope or the message out
 * of range.
 */
export function signInCredentialInput(witness: SignInCredentialWitness): SignInCredentialInput {
  const invalid = (why: string) => new ProtocolInputError('INVALID_PROOF', `The credential proof cannot be made: ${why}.`);
  const issuer = parseIssuerKey(witness.issuerPublicKey);
  if (!issuer) throw invalid('the issuer’s key is not a valid public key');
  const depth = witness.siblings.length;
  if (depth > SIGN_IN_CREDENTIAL_MAX_DEPTH) throw invalid(`the credential tree is deeper than ${SIGN_IN_CREDENTIAL_MAX_DEPTH}`);
  if (!Number.isSafeInteger(witness.proofIndex) || witness.proofIndex < 0 || witness.proofIndex >= 2 ** depth)
    throw invalid('the index does not fit the proof');
  const siblings = witness.siblings.map(String);
  if (!siblings.every(isFieldElement)) throw invalid('a sibling is not a field element');
  if (witness.secret < 0n || witness.secret >= 1n << 251n) throw invalid('the secret is out of range');
  // Semaphore hashes 32 bytes: a larger or negative value would stand for another one.
  const [scope, message] = [BigInt(witness.scope), BigInt(witness.message)];
  if ([scope, message].some((n) => n < 0n || n >= 1n << 256n)) throw invalid('the scope or message is out of range');
  return {
    secret: witness.secret.toString(),
    merkleProofLength: depth.toString(),
    merkleProofIndex: witness.proofIndex.toString(),
    merkleProofSiblings: [...siblings, ...Array<string>(SIGN_IN_CREDENTIAL_MAX_DEPTH - depth).fill('0')],
    issuer: [issuer.x.toString(), issuer.y.toString()],
    scope: semaphoreHash(scope).toString(),
    message: semaphoreHash(message).toString(),
  };
}
