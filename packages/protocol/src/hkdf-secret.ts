import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';

const encoder = new TextEncoder();

/**
 * HKDF-SHA256 (RFC 5869) of an OPRF output with an empty salt: the OPRF output is already uniformly
 * random and keyed by the server, so each `info` label gives an independent 32-byte secret.
 */
export function hkdfSecret(oprfOutput: Uint8Array, info: string): Uint8Array {
  return hkdf(sha256, oprfOutput, undefined, encoder.encode(info), 32);
}
