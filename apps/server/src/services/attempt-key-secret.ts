import { hkdfSync } from 'node:crypto';

/**
 * The secret that keys client addresses in the attempt counters (HMAC-SHA256), derived from the
 * OPRF private key with its own HKDF label. Deriving it, rather than keeping a second secret,
 * means every instance that shares the OPRF key (as it must) keys a client alike, with nothing new
 * to configure or back up; HKDF is one-way, so the secret tells nothing about the OPRF key.
 */
export function attemptKeySecret(oprfPrivateKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', oprfPrivateKey, new Uint8Array(0), 'zeroid/attempt-keys/v1', 32));
}
