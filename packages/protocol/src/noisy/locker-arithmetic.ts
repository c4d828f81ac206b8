import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { randomBytes } from '@noble/hashes/utils.js';

/**
 * The ristretto255 operations the lockers' OPRF needs, on encoded elements and 32-byte little-endian
 * scalars. Any conforming implementation gives the same bytes: noble's is the default (pure
 * TypeScript, in both homes), and libsodium's WebAssembly (`crypto_core_ristretto255_from_hash`,
 * `crypto_scalarmult_ristretto255`) is some five times faster, which a verification of thousands of
 * lockers notices. The known-answer tests hold any implementation to RFC 9497's outputs.
 */
export interface LockerArithmetic {
  /** RFC 9496 §4.3.4: 64 uniform bytes to an element. */
  fromHash(uniform: Uint8Array): Uint8Array;
  /** scalar · element; throws on a non-canonical or identity element. */
  multiply(element: Uint8Array, scalar: Uint8Array): Uint8Array;
  /** A uniformly random non-zero scalar (the client's blind). */
  randomScalar(): Uint8Array;
  /** The scalar's inverse modulo the group order. */
  invertScalar(scalar: Uint8Array): Uint8Array;
}

const { Point } = ristretto255;
const Fn = Point.Fn;

/** `LockerArithmetic` in @noble/curves. */
export const nobleLockerArithmetic: LockerArithmetic = {
  fromHash: (uniform) => ristretto255_hasher.deriveToCurve!(uniform).toBytes(),
  multiply(element, scalar) {
    const point = Point.fromBytes(element);
    if (point.is0()) throw new RangeError('The identity element is not a locker query');
    return point.multiply(Fn.create(bytesToNumberLE(scalar))).toBytes();
  },
  randomScalar() {
    for (;;) {
      const scalar = Fn.create(bytesToNumberLE(randomBytes(64)));
      if (scalar !== 0n) return numberToBytesLE(scalar, 32);
    }
  },
  invertScalar: (scalar) => numberToBytesLE(Fn.inv(bytesToNumberLE(scalar)), 32),
};
