import { edwards } from '@noble/curves/abstract/edwards.js';
import { deriveSecretScalar } from '@zk-kit/eddsa-poseidon';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { SNARK_SCALAR_FIELD } from './field.ts';

/**
 * Baby Jubjub (EIP-2494) as a twisted Edwards curve over the BN254 scalar field, on @noble/curves'
 * generic Edwards implementation: extended coordinates and a precomputed window table for the base
 * point, instead of @zk-kit/baby-jubjub's affine additions with two field inversions each. The
 * generator is Base8, the generator of the prime-order subgroup that Semaphore keys live in.
 * Internal to the package: `semaphore-public-key.ts` uses it to refuse degenerate keys.
 */
export const BabyJubjub = edwards({
  p: SNARK_SCALAR_FIELD,
  n: 2736030358979909402780800718157159386076813972158567259200215660948447373041n,
  h: 8n,
  a: 168700n,
  d: 168696n,
  Gx: 5299619240641551281634865583518297030282874472190772894086521144482721001553n,
  Gy: 16950150798460657717958625567821834550301663161624707787222815936182638968203n,
});
BabyJubjub.BASE.precompute(8);

/**
 * The Semaphore v4 identity commitment of a private key, `poseidon2(secretScalar · Base8)`, exactly
 * what `new Identity(privateKey).commitment` computes, in about a twentieth of the time. The server's
 * legacy raw path needs only the commitment; the known-answer vectors and a property test against
 * `Identity` keep the two equal.
 */
export function semaphoreCommitment(privateKey: Uint8Array): bigint {
  return semaphoreProvingKey(privateKey).commitment;
}

/** What `generateProof` reads of an `Identity`: its secret scalar and commitment, without the slow public key. */
export function semaphoreProvingKey(privateKey: Uint8Array): { secretScalar: bigint; commitment: bigint } {
  const secretScalar = deriveSecretScalar(privateKey);
  const { x, y } = BabyJubjub.BASE.multiplyUnsafe(secretScalar).toAffine();
  return { secretScalar, commitment: poseidon2([x, y]) };
}
