import { bn254 } from '@taceo/poseidon2';
import { Fn, Point } from './baby-jubjub-group.ts';
import { asciiField } from './oprf-suite.ts';
import { proveDleq, verifyDleq, type DleqProof } from './dleq-proof.ts';

const SEED_DS = asciiField('ZeroID OPRFv3 Seed');
const COMPOSITE_DS = asciiField('ZeroID OPRFv3 Composite');

/**
 * RFC 9497 §2.2.1's composites on Baby Jubjub: a seed hashed from the public key, a weight
 * dᵢ = Poseidon2_t16([COMPOSITE_DS, seed, i, Bᵢ, Zᵢ])[1] mod ℓ per pair, M = Σ dᵢ·Bᵢ and W = Σ dᵢ·Zᵢ.
 * One Chaum–Pedersen proof for (M, W) then shows every Zᵢ = k·Bᵢ: an evaluator that changes any Zᵢ
 * after the weights are fixed would have to hit W by chance. Empty lists are refused by the callers.
 */
function composites(publicKey: Point, pairs: readonly (readonly [Point, Point])[]): [Point, Point] {
  const { x, y } = publicKey.toAffine();
  const seed = bn254.t3.permutation([SEED_DS, x, y])[1]!;
  return pairs.reduce<[Point, Point]>(
    ([m, w], [blinded, evaluated], i) => {
      const b = blinded.toAffine();
      const z = evaluated.toAffine();
      const weight = Fn.create(
        bn254.t16.permutation([COMPOSITE_DS, seed, BigInt(i), b.x, b.y, z.x, z.y, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n])[1]!,
      );
      return [m.add(blinded.multiplyUnsafe(weight)), w.add(evaluated.multiplyUnsafe(weight))];
    },
    [Point.ZERO, Point.ZERO],
  );
}

/**
 * One proof that every evaluated point of a batch is k times its blinded point (a node's
 * `/oprf/batch`: the biometric and the ID of one registration). `nonce` is for known-answer tests only.
 * @throws RangeError for an empty batch.
 */
export function proveDleqBatch(
  privateKey: bigint,
  publicKey: Point,
  pairs: readonly (readonly [Point, Point])[],
  nonce?: bigint,
): DleqProof {
  if (pairs.length === 0) throw new RangeError('An empty batch has nothing to prove');
  const [m, w] = composites(publicKey, pairs);
  // k·M = W holds by construction, so the composite's proof is the ordinary one (the points are public).
  return proveDleq(privateKey, publicKey, m, w, nonce);
}

/** True when `proof` shows Zᵢ = k·Bᵢ for every pair under `publicKey`. The points must be decoded already. */
export function verifyDleqBatch(publicKey: Point, pairs: readonly (readonly [Point, Point])[], proof: DleqProof): boolean {
  if (pairs.length === 0) return false;
  const [m, w] = composites(publicKey, pairs);
  return !m.is0() && !w.is0() && verifyDleq(publicKey, m, w, proof);
}
