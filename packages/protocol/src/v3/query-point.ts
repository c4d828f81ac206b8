import { encodeToCurve } from '@taceo/oprf-core';
import { Point } from './baby-jubjub-group.ts';

/**
 * H₁ of 2HashDH: the query's point in the prime-order subgroup, TACEO's `encode_to_curve` for Baby
 * Jubjub (`@taceo/oprf-core`, MIT): hash_to_field by one Poseidon2 permutation (t = 3) under the DST
 * "OPRF_HashToField_BabyJubJub", Elligator 2 onto the Montgomery form (RFC 9380 §6.7.1, Z = 5), the
 * rational map to twisted Edwards, then ×8 to clear the cofactor. The registration circuit recomputes
 * exactly this (`circuits/encode-to-curve.circom`). Only this function and the challenge hash are taken
 * from the library: its scalar arithmetic assumes an older @noble/curves (decision 040).
 */
export function queryPoint(query: bigint): Point {
  const { x, y } = encodeToCurve(query).toAffine();
  return Point.fromAffine({ x, y });
}
