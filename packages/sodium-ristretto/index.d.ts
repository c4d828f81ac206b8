/** ristretto255 on the system's libsodium; every function throws where libsodium returns an error. */
interface SodiumRistretto {
  /** scalar·element; throws for an invalid element or the identity as result. */
  scalarmult: (scalar: Uint8Array, element: Uint8Array) => Uint8Array;
  /** scalar·G; throws for a zero scalar. */
  scalarmultBase: (scalar: Uint8Array) => Uint8Array;
  /** The element 64 uniform bytes map to. */
  fromHash: (hash: Uint8Array) => Uint8Array;
  /** p + q; throws for an invalid element. */
  add: (p: Uint8Array, q: Uint8Array) => Uint8Array;
  /** Whether the bytes are a canonical encoding (the identity's included). */
  isValidPoint: (element: Uint8Array) => boolean;
  /** The libsodium the addon was loaded with, e.g. "1.0.18". */
  libsodiumVersion: string;
}
declare const addon: SodiumRistretto | undefined;
export = addon;
