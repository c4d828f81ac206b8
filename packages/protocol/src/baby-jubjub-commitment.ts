import { edwards } from '@noble/curves/abstract/edwards.js';
import { deriveSecretScalar } from '@zk-kit/eddsa-poseidon';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { SNARK_SCALAR_FIELD } from './field.ts';
import type { V3Arithmetic } from './v3/arithmetic.ts';

/** What a commitment needs of an arithmetic (decision 063): s·Base8 and Poseidon. */
export type CommitmentArithmetic = Pick<V3Arithmetic, 'baseTimes' | 'poseidon'>;

/**
 * Baby Jubjub (EIP-2494) as a twisted Edwards curve over the BN254 scalar field, on @noble/curves'
 * generic Edwards implementation: extended coordinates (and, in a long-lived process, a window table
 * for the base point: `precomputeFixedBases`), instead of @zk-kit/baby-jubjub's affine additions with
 * two field inversions each. The generator is Base8, the generator of the prime-order subgroup that
 * Semaphore keys live in. Internal to the package: `semaphore-public-key.ts` uses it to refuse degenerate keys.
 */
/** The order of Baby Jubjub's prime-order subgroup, where Semaphore's secret scalars live. */
const SUBGROUP_ORDER = 2736030358979909402780800718157159386076813972158567259200215660948447373041n;

export const BabyJubjub = edwards({
  p: SNARK_SCALAR_FIELD,
  n: SUBGROUP_ORDER,
  h: 8n,
  a: 168700n,
  d: 168696n,
  Gx: 5299619240641551281634865583518297030282874472190772894086521144482721001553n,
  Gy: 16950150798460657717958625567821834550301663161624707787222815936182638968203n,
});

/**
 * The Semaphore v4 identity commitment of a private key, `poseidon2(secretScalar · Base8)`, exactly
 * what `new Identity(privateKey).commitment` computes, in about a twentieth of the time. The server's
 * raw path needs only the commitment; the known-answer vectors and a property test against
 * `Identity` keep the two equal.
 */
export function semaphoreCommitment(privateKey: Uint8Array, arithmetic?: CommitmentArithmetic): bigint {
  return semaphoreProvingKey(privateKey, arithmetic).commitment;
}

/** What `generateProof` reads of an `Identity`: its secret scalar and commitment, without the slow public key. */
export function semaphoreProvingKey(
  privateKey: Uint8Array,
  arithmetic?: CommitmentArithmetic,
): { secretScalar: bigint; commitment: bigint } {
  const secretScalar = deriveSecretScalar(privateKey);
  return { secretScalar, commitment: commitmentOfSecretScalar(secretScalar, arithmetic) };
}

/**
 * The commitment of a secret scalar, `poseidon2(secretScalar · Base8)`; with `arithmetic` (the server's
 * WebAssembly, decision 063) the same number from it.
 */
export function commitmentOfSecretScalar(secretScalar: bigint, arithmetic?: CommitmentArithmetic): bigint {
  if (arithmetic) {
    const { x, y } = arithmetic.baseTimes(secretScalar);
    return arithmetic.poseidon(x, y);
  }
  const { x, y } = BabyJubjub.BASE.multiplyUnsafe(secretScalar).toAffine();
  return poseidon2([x, y]);
}

/**
 * True when `secretScalar` (canonical decimal, 0 < s < the subgroup order) is the secret behind
 * `commitment`: an erasure that hands the secret over (decision 036) proves it this way.
 */
export function isSecretOfCommitment(secretScalar: string, commitment: string): boolean {
  const scalar = BigInt(secretScalar);
  return scalar > 0n && scalar < SUBGROUP_ORDER && commitmentOfSecretScalar(scalar) === BigInt(commitment);
}
