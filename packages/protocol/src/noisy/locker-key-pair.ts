import { ristretto255_oprf } from '@noble/curves/ed25519.js';

/**
 * The lockers' OPRF key pair, RFC 9497 ristretto255-SHA512: fresh, or from a seed by DeriveKeyPair
 * for known-answer tests. The key never leaves the server (or, in a product, the threshold nodes): it
 * is what makes the stored lockers untestable offline.
 */
export function lockerKeyPair(seed?: Uint8Array): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const { oprf } = ristretto255_oprf;
  return seed ? oprf.deriveKeyPair(seed, new TextEncoder().encode('zeroid/noisy/key/v1')) : oprf.generateKeyPair();
}
