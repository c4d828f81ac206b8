import { G, type AffinePoint } from './baby-jubjub-group.ts';
import { queryPoint } from './query-point.ts';

/**
 * The curve operations that make a v3 derivation cost, behind one interface so that the server's
 * derivation threads can run them on WebAssembly (as v2's `RistrettoMultiply` runs on libsodium) and
 * the browser keeps noble's. Every implementation gives the same numbers as `nobleBabyJubjub`.
 */
export interface BabyJubjubArithmetic {
  /** The y coordinate of k·H₁(query), all that Finalize reads of the unblinded point. */
  keyTimesQueryPointY(query: bigint, key: bigint): bigint;
  /** scalar·G in affine coordinates (a Semaphore identity's public key). */
  baseTimes(scalar: bigint): AffinePoint;
}

/** The protocol's own arithmetic: @noble/curves and @taceo/oprf-core, pure JavaScript BigInt. */
export const nobleBabyJubjub: BabyJubjubArithmetic = {
  keyTimesQueryPointY: (query, key) => queryPoint(query).multiply(key).toAffine().y,
  baseTimes: (scalar) => G.multiply(scalar).toAffine(),
};
