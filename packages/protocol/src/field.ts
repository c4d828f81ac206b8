/** The BN254 scalar field modulus r: every public input of a Semaphore proof is below it. */
export const SNARK_SCALAR_FIELD = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/**
 * Canonical decimal: no sign, no leading zeros, no hex. The only form we store or compare. At most 77
 * digits, as every value below either BN254 modulus has; the schemas use it as their pattern.
 */
export const CANONICAL_DECIMAL = /^(0|[1-9][0-9]{0,76})$/;

/** Canonical decimal of any length; `isCanonicalBelow` bounds the length by its bound's first. */
const CANONICAL_DIGITS = /^(0|[1-9][0-9]*)$/;

/**
 * True for a canonical decimal string below `bound`. `BigInt()` alone would accept " 1", "-1" or
 * "0x1"; the length is checked before anything is parsed, so a long string costs nothing.
 */
export function isCanonicalBelow(value: unknown, bound: bigint): value is string {
  return typeof value === 'string' && value.length <= String(bound).length && CANONICAL_DIGITS.test(value) && BigInt(value) < bound;
}

/** True for a canonical decimal string below the field modulus. */
export function isFieldElement(value: unknown): value is string {
  return isCanonicalBelow(value, SNARK_SCALAR_FIELD);
}

/** The BN254 base field modulus q: the coordinates of a Groth16 proof's points are below it. */
export const BN254_BASE_FIELD = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;

/** True for a canonical decimal string that is a valid point coordinate. */
export function isBaseFieldElement(value: unknown): value is string {
  return isCanonicalBelow(value, BN254_BASE_FIELD);
}
