import type { Point } from './baby-jubjub-group.ts';
import { FINALIZE_DS } from './oprf-suite.ts';
import { jsV3Arithmetic, type V3Arithmetic } from './arithmetic.ts';

/**
 * H₂ of 2HashDH: the OPRF output y = Poseidon2_t3([FINALIZE_DS, query, N.y])[1], for N = k·H₁(query).
 * Only N's y coordinate is hashed: −N has the same one, so the output does not depend on which of
 * ±H₁(query) a client blinded, and the circuit need not pin the sign of the Elligator 2 root (about
 * 400 constraints per input saved). The map N ↦ N.y is two-to-one on the subgroup, which costs the
 * output one bit of the group's 251, nothing it needs.
 */
export function finalizeOutput(query: bigint, unblinded: Point): bigint {
  return finalizeOutputOfY(query, unblinded.toAffine().y);
}

/** `finalizeOutput` from N's y coordinate alone, for arithmetic that never builds a noble point. */
export function finalizeOutputOfY(query: bigint, unblindedY: bigint, arithmetic: V3Arithmetic = jsV3Arithmetic): bigint {
  return arithmetic.poseidon2Word1([FINALIZE_DS, query, unblindedY]);
}
