import { poseidon2 } from 'poseidon-lite/poseidon2';
import { G } from './baby-jubjub-group.ts';
import { SECRET_BITS, SEMAPHORE_LABEL } from './oprf-v3-suite.ts';

/**
 * The biometric half of `deriveRegistration`: the Semaphore secret scalar and commitment from y_bio
 * alone, the two things `generateProof` reads of an identity. Verification needs nothing else, so it
 * skips the ID tag and the DID's Ed25519 key. seed = Poseidon(SEMAPHORE_LABEL, y_bio), secret = its
 * low 250 bits, commitment = Poseidon(secret·Base8) as Semaphore v4 computes it (decision 040).
 */
export function deriveProvingIdentityV3(outputBio: bigint): { secretScalar: bigint; commitment: bigint } {
  const seed = poseidon2([SEMAPHORE_LABEL, outputBio]);
  const secretScalar = seed & ((1n << BigInt(SECRET_BITS)) - 1n);
  const { x, y } = G.multiply(secretScalar).toAffine();
  return { secretScalar, commitment: poseidon2([x, y]) };
}
