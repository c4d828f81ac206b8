import sodium from 'libsodium-wrappers-sumo';
import type { Ed25519PublicKeyOf, RistrettoMultiply } from '@zeroid/protocol';
import native from '@zeroid/sodium-ristretto';
import { isCanonicalRistretto255Encoding } from './canonical-ristretto255.ts';

/**
 * Resolves once libsodium's WebAssembly is ready; the functions below throw before. (No top-level
 * await here: tsx loads this file as CommonJS inside piscina's workers.)
 */
export const libsodiumReady: Promise<void> = sodium.ready;

/**
 * The raw path's group operations in libsodium (WebAssembly) instead of noble's BigInt code: a
 * ristretto255 element from 64 uniform bytes, its product with the OPRF key and an Ed25519 public key,
 * each several times faster (docs/benchmarks.md, "libsodium group operations"). The derived values are
 * the same; the RFC 9497 vectors and our derivation vectors check it (libsodium.test.ts).
 *
 * libsodium refuses a product that is the identity element, as the RFC requires; with a non-zero key
 * that happens only for the identity element, which a hash reaches with negligible probability.
 */
export const sodiumRistrettoMultiply: RistrettoMultiply = (uniformBytes, privateKey) =>
  ristretto255.scalarmult(privateKey, ristretto255.fromHash(uniformBytes));

type Ristretto255 = Omit<NonNullable<typeof native>, 'libsodiumVersion'>;

/**
 * A backend behind one encoding gate (`isCanonicalRistretto255Encoding`, RFC 9496's byte rules):
 * `isValidPoint` is false, and `scalarmult` and `add` throw, for an encoding the gate refuses, before
 * the library reads it. libsodium 1.0.18 (the addon's) accepts encodings with bit 255 set, which the
 * WebAssembly refuses; with the gate in front, both refuse the same bytes (decision 033).
 */
function gated(backend: Ristretto255): Ristretto255 {
  const check = (element: Uint8Array) => {
    if (element instanceof Uint8Array && element.length === 32 && !isCanonicalRistretto255Encoding(element))
      throw new Error('invalid point: not a canonical ristretto255 encoding');
  };
  return {
    scalarmult: (scalar, element) => (check(element), backend.scalarmult(scalar, element)),
    scalarmultBase: backend.scalarmultBase,
    fromHash: backend.fromHash,
    add: (p, q) => (check(p), check(q), backend.add(p, q)),
    isValidPoint: (element) =>
      (!(element instanceof Uint8Array) || element.length !== 32 || isCanonicalRistretto255Encoding(element)) &&
      backend.isValidPoint(element),
  };
}

/** The ristretto255 operations that cost, on libsodium-wrappers' WebAssembly, behind the encoding gate. */
export const wasmRistretto255 = gated({
  scalarmult: (scalar: Uint8Array, element: Uint8Array) => sodium.crypto_scalarmult_ristretto255(scalar, element),
  scalarmultBase: (scalar: Uint8Array) => sodium.crypto_scalarmult_ristretto255_base(scalar),
  fromHash: (hash: Uint8Array) => sodium.crypto_core_ristretto255_from_hash(hash),
  add: (p: Uint8Array, q: Uint8Array) => sodium.crypto_core_ristretto255_add(p, q),
  isValidPoint: (element: Uint8Array) => sodium.crypto_core_ristretto255_is_valid_point(element),
});

/** The native addon's operations behind the same gate; undefined when the addon did not load. */
export const nativeRistretto255 = native && gated(native);

/**
 * The same operations on the system's libsodium through the optional addon `@zeroid/sodium-ristretto`
 * when `npm ci` could build it (libsodium's headers installed), else on the WebAssembly. The same
 * library, so the same bytes and the same refusals (an invalid element, an identity product); the
 * native scalar multiplication is about 2.5 times faster (decision 031). Scalar arithmetic, which is
 * cheap, stays on the WebAssembly.
 */
export const ristretto255: Ristretto255 = nativeRistretto255 ?? wasmRistretto255;

/** Which libsodium does the group work, for the start-up log. */
export const ristretto255Backend = native ? `native libsodium ${native.libsodiumVersion}` : 'libsodium WebAssembly';

export const sodiumEd25519PublicKey: Ed25519PublicKeyOf = (seed) => sodium.crypto_sign_seed_keypair(seed).publicKey;
