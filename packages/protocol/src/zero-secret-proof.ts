import { poseidon2 } from 'poseidon-lite/poseidon2';
import { semaphoreHash } from './semaphore-hash.ts';

/**
 * The leaf a proof made with the secret 0 proves membership of: poseidon2(0, 1), the commitment of
 * the identity point. A proof against a root whose tree does not hold this leaf cannot be made with
 * the secret 0, so a verifier that knows the tree can skip `isZeroSecretProof` (a Poseidon hash).
 */
export const ZERO_SECRET_COMMITMENT = poseidon2([0n, 1n]).toString();

/**
 * True when a Semaphore v4 proof was made with the secret 0. Its nullifier is
 * poseidon2(hash(scope), secret), which for the secret 0 anyone can compute. The secret 0 has the
 * identity point (0, 1) as its key, and poseidon2(0, 1) as its commitment: a leaf for which anyone can
 * prove membership. Registration refuses that commitment; this check refuses the proof too, in case
 * such a leaf entered the tree before registration did (a database from an older version, an import).
 * It is the only degenerate key a proof can be made for: the circuit computes the key as
 * secret · Base8 with secret < l, which no other small-order or mixed-order point is.
 */
export function isZeroSecretProof(proof: { scope: string; nullifier: string }): boolean {
  return poseidon2([semaphoreHash(proof.scope), 0n]).toString() === proof.nullifier;
}
