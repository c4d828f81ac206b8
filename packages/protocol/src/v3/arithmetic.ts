import { bn254 } from '@taceo/poseidon2';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { G, type AffinePoint } from './baby-jubjub-group.ts';
import { queryPoint } from './query-point.ts';

/**
 * The operations that make a v3 derivation cost, behind one interface so that the server's derivation
 * threads can run them on WebAssembly (as v2's `RistrettoMultiply` runs on libsodium) while the
 * browser keeps the JavaScript libraries. Every implementation gives the same numbers as
 * `jsV3Arithmetic`, bit for bit.
 */
export interface V3Arithmetic {
  /** The y coordinate of k·H₁(query), all that Finalize reads of the unblinded point. */
  keyTimesQueryPointY(query: bigint, key: bigint): bigint;
  /** scalar·G in affine coordinates (a Semaphore identity's public key). */
  baseTimes(scalar: bigint): AffinePoint;
  /** circomlib's Poseidon of two field elements (poseidon-lite's `poseidon2`). */
  poseidon(left: bigint, right: bigint): bigint;
  /** Word 1 of HorizenLabs' Poseidon2 permutation (t = 3) of a state (@taceo/poseidon2's). */
  poseidon2Word1(state: readonly [bigint, bigint, bigint]): bigint;
}

/** The protocol's own arithmetic, the browser's: @noble/curves, @taceo/oprf-core, poseidon-lite and @taceo/poseidon2. */
export const jsV3Arithmetic: V3Arithmetic = {
  keyTimesQueryPointY: (query, key) => queryPoint(query).multiply(key).toAffine().y,
  baseTimes: (scalar) => G.multiply(scalar).toAffine(),
  poseidon: (left, right) => poseidon2([left, right]),
  poseidon2Word1: (state) => bn254.t3.permutation([...state])[1]!,
};
