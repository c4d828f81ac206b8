import { Fn, G, randomScalar, type Point } from './baby-jubjub-group.ts';

/** One node's Shamir share kᵢ = f(i) of the v3 OPRF key: index 1..255, a scalar modulo ℓ. */
export interface KeyShare {
  index: number;
  share: bigint;
}

/**
 * The Lagrange coefficients λᵢ modulo ℓ that evaluate, at `at`, the polynomial through the given
 * x-coordinates: f(at) = Σ λᵢ·f(xᵢ). At 0 they recover k from any t shares, and applied to points
 * ("in the exponent") they turn answers kᵢ·B into k·B.
 * @throws RangeError when an index repeats or is not an integer from 0 to 255.
 */
export function lagrangeCoefficients(indices: readonly number[], at = 0): bigint[] {
  if (new Set(indices).size !== indices.length) throw new RangeError('Share indices must be distinct');
  if (!indices.every((i) => Number.isInteger(i) && i >= 0 && i <= 255)) throw new RangeError('Share indices are integers from 0 to 255');
  return indices.map((xi, i) =>
    Fn.div(
      indices.reduce((acc, xj, j) => (j === i ? acc : Fn.mul(acc, Fn.sub(BigInt(at), BigInt(xj)))), Fn.ONE),
      indices.reduce((acc, xj, j) => (j === i ? acc : Fn.mul(acc, Fn.sub(BigInt(xi), BigInt(xj)))), Fn.ONE),
    ),
  );
}

/**
 * Splits k into `count` Shamir shares, any `threshold` of which recover it (a fresh random polynomial
 * of degree t−1 with f(0) = k; fewer shares say nothing about k). The group key K = k·G, and so every
 * output, stays the same.
 * @throws RangeError unless 0 < k < ℓ and 2 ≤ threshold ≤ count ≤ 255.
 */
export function splitKey(privateKey: bigint, threshold: number, count: number): KeyShare[] {
  if (privateKey <= 0n || privateKey >= Fn.ORDER) throw new RangeError('The key is a non-zero scalar below ℓ');
  if (!Number.isInteger(threshold) || !Number.isInteger(count) || threshold < 2 || threshold > count || count > 255)
    throw new RangeError('Need 2 ≤ threshold ≤ count ≤ 255');
  for (;;) {
    const coefficients = [privateKey, ...Array.from({ length: threshold - 1 }, randomScalar)];
    const shares = Array.from({ length: count }, (_, i) => ({
      index: i + 1,
      share: coefficients.reduceRight((acc, c) => Fn.add(Fn.mul(acc, BigInt(i + 1)), c), Fn.ZERO),
    }));
    // A zero share could not evaluate (2⁻²⁵⁰ a share): draw again.
    if (shares.every(({ share }) => share !== 0n)) return shares;
  }
}

/**
 * The key any t shares of one split interpolate to (Lagrange at 0); shares of different splits, or
 * fewer than t, give an unrelated scalar.
 * @throws RangeError for no shares, bad indices, or a zero result.
 */
export function recoverKey(shares: readonly KeyShare[]): bigint {
  if (shares.length === 0) throw new RangeError('No shares');
  const lambdas = lagrangeCoefficients(shares.map(({ index }) => index));
  const key = shares.reduce((acc, { share }, i) => Fn.add(acc, Fn.mul(lambdas[i]!, share)), Fn.ZERO);
  if (key === 0n) throw new RangeError('The shares interpolate to zero');
  return key;
}

/** The public share Kᵢ = kᵢ·G a node publishes; its DLEQ proofs are checked against it. */
export function publicShare(share: KeyShare): { index: number; publicKey: Point } {
  return { index: share.index, publicKey: G.multiply(share.share) };
}
