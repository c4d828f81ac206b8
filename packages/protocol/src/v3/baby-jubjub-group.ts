import { babyjubjub } from '@noble/curves/misc.js';
import { bytesToNumberLE, randomBytes } from '@noble/curves/utils.js';

/**
 * Baby Jubjub (EIP-2494), the twisted Edwards curve over the BN254 scalar field, as @noble/curves
 * (≥ 2.4) defines it: `Point.BASE` is Base8, the generator of the prime-order subgroup that
 * circomlib, Semaphore and TACEO's OPRF all use, and `Point.Fn` is the field of scalars modulo that
 * subgroup's order ℓ ≈ 2²⁵¹ (about 125-bit security against Pollard's rho). Every point protocol v3
 * accepts from outside lies in that subgroup and is not the identity.
 */
export const Point = babyjubjub.Point;
export type Point = InstanceType<typeof babyjubjub.Point>;

/** Scalars modulo the subgroup order ℓ; 32 bytes little-endian on the wire. */
export const Fn = Point.Fn;

/** The generator G (Base8). A long-lived process gives it a window table (`precomputeFixedBases`). */
export const G = Point.BASE;

/** An affine point as the circuit sees it: two BN254 field elements. */
export interface AffinePoint {
  x: bigint;
  y: bigint;
}

/** The 32-byte encoding (RFC 8032 style: y little-endian, the sign of x in the top bit). */
export function encodePoint(point: Point): Uint8Array {
  return point.toBytes();
}

/**
 * The point a 32-byte encoding stands for, or undefined unless it is canonical, on the curve, in the
 * prime-order subgroup and not the identity. Every point that enters from outside passes here: a
 * small-order or mixed-order point would let an evaluator or a client learn or change the key's
 * residue modulo the cofactor.
 */
export function decodePoint(bytes: Uint8Array): Point | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) return undefined;
  let point: Point;
  try {
    point = Point.fromBytes(bytes);
  } catch {
    return undefined;
  }
  if (point.is0() || !point.isTorsionFree()) return undefined;
  const again = point.toBytes();
  return again.every((byte, i) => byte === bytes[i]) ? point : undefined;
}

/** A point from affine coordinates, with the same checks as `decodePoint`. */
export function pointFromAffine({ x, y }: AffinePoint): Point | undefined {
  try {
    const point = Point.fromAffine({ x, y });
    point.assertValidity();
    return point.is0() || !point.isTorsionFree() ? undefined : point;
  } catch {
    return undefined;
  }
}

/** A uniform non-zero scalar: 64 random bytes reduced modulo ℓ (bias below 2⁻²⁵⁰). */
export function randomScalar(): bigint {
  for (;;) {
    const scalar = Fn.create(bytesToNumberLE(randomBytes(64)));
    if (scalar !== 0n) return scalar;
  }
}

/** A canonical 32-byte little-endian scalar below ℓ, or undefined. */
export function decodeScalar(bytes: Uint8Array): bigint | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== Fn.BYTES) return undefined;
  const scalar = bytesToNumberLE(bytes);
  return scalar < Fn.ORDER ? scalar : undefined;
}
