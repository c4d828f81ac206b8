import { ristretto255 } from '@noble/curves/ed25519.js';

const Fn = ristretto255.Point.Fn;

/**
 * The Lagrange coefficients λᵢ, over the ristretto255 scalar field, that interpolate a polynomial
 * through the points with these x-coordinates (share indices; 0 for the secret itself) and evaluate it at `at`:
 * f(at) = Σ λᵢ·f(xᵢ), λᵢ = Π_{j≠i} (at − xⱼ)/(xᵢ − xⱼ). With `at` = 0 this recovers a Shamir secret,
 * and applied to points ("in the exponent") it combines partial evaluations kᵢ·B into k·B.
 * @throws Error when an index repeats or is not a non-negative integer (the denominators would vanish).
 */
export function lagrangeCoefficients(indices: readonly number[], at = 0): bigint[] {
  if (new Set(indices).size !== indices.length) throw new Error('Share indices must be distinct');
  for (const index of indices) if (!Number.isInteger(index) || index < 0) throw new Error('Share indices are non-negative integers');
  const x = Fn.create(BigInt(at));
  return indices.map((xi, i) => {
    let numerator = Fn.ONE;
    let denominator = Fn.ONE;
    indices.forEach((xj, j) => {
      if (j === i) return;
      numerator = Fn.mul(numerator, Fn.sub(x, BigInt(xj)));
      denominator = Fn.mul(denominator, Fn.sub(BigInt(xi), BigInt(xj)));
    });
    return Fn.div(numerator, denominator);
  });
}
