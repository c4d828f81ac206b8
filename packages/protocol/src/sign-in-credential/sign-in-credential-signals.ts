import { parseIssuerKey } from '../credential/issuer-key.ts';
import { isBaseFieldElement, isFieldElement } from '../field.ts';
import { semaphoreHash } from '../semaphore-hash.ts';
import type { WireCredentialSignInProof } from './sign-in-credential-schemas.ts';

/** The sign-in's own scope and message, as its Semaphore proof carries them (before Semaphore's hash). */
export interface SignInBinding {
  scope: string | bigint;
  message: string | bigint;
}

/**
 * The public signals of a credential sign-in proof in snarkjs's order (merkleRoot, nullifier, A.x,
 * A.y, scope, message), built by the verifier from the proof's root, nullifier and issuer and from
 * the sign-in's own binding, never from anything else the client sends. Undefined for anything that
 * is not a well-formed proof: an issuer key that is not a valid public key, a number not in canonical
 * decimal or not below its field, not exactly eight point coordinates.
 */
export function signInCredentialPublicSignals(proof: unknown, binding: SignInBinding): string[] | undefined {
  try {
    if (typeof proof !== 'object' || proof === null) return undefined;
    const { issuer, merkleTreeRoot, nullifier, points } = proof as Partial<Record<keyof WireCredentialSignInProof, unknown>>;
    if (!isFieldElement(merkleTreeRoot) || !isFieldElement(nullifier)) return undefined;
    if (!Array.isArray(points) || points.length !== 8 || !points.every(isBaseFieldElement)) return undefined;
    const key = typeof issuer === 'string' ? parseIssuerKey(issuer) : undefined;
    if (!key) return undefined;
    const [scope, message] = [BigInt(binding.scope), BigInt(binding.message)];
    // Semaphore hashes 32 bytes: a larger or negative value would stand for another one.
    if ([scope, message].some((n) => n < 0n || n >= 1n << 256n)) return undefined;
    return [
      merkleTreeRoot,
      nullifier,
      key.x.toString(),
      key.y.toString(),
      semaphoreHash(scope).toString(),
      semaphoreHash(message).toString(),
    ];
  } catch {
    return undefined; // a scope or message that is no number
  }
}
