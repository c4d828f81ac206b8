import { Identity } from '@semaphore-protocol/identity';
import { semaphoreCommitment, semaphoreProvingKey, type CommitmentArithmetic } from './baby-jubjub-commitment.ts';
import { hkdfSecret } from './hkdf-secret.ts';

const SEMAPHORE_LABEL = 'zeroid/semaphore/v1';

/**
 * The Semaphore v4 identity of a person, from the OPRF output of their biometric. Its private key is
 * HKDF(oprf(bio), "zeroid/semaphore/v1"); its commitment (Poseidon of the Baby Jubjub public key) is
 * the leaf in the group. Without the server's OPRF key, the commitment reveals nothing about the
 * biometric and cannot be recomputed from a guess offline.
 */
export function deriveIdentity(oprfBio: Uint8Array): Identity {
  return new Identity(hkdfSecret(oprfBio, SEMAPHORE_LABEL));
}

/**
 * Only the commitment of `deriveIdentity(oprfBio)`, about 30 times faster: for the server's raw path,
 * which passes its WebAssembly `arithmetic` (decision 063).
 */
export function deriveCommitment(oprfBio: Uint8Array, arithmetic?: CommitmentArithmetic): bigint {
  return semaphoreCommitment(hkdfSecret(oprfBio, SEMAPHORE_LABEL), arithmetic);
}

/**
 * The secret scalar and commitment of `deriveIdentity(oprfBio)`, the two things `generateProof`
 * reads of an identity, without computing the public key the slow way: for the prover.
 */
export function deriveProvingIdentity(
  oprfBio: Uint8Array,
  arithmetic?: CommitmentArithmetic,
): { secretScalar: bigint; commitment: bigint } {
  return semaphoreProvingKey(hkdfSecret(oprfBio, SEMAPHORE_LABEL), arithmetic);
}

export { Identity };
