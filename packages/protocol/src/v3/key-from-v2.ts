import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { Fn } from './baby-jubjub-group.ts';

const encoder = new TextEncoder();

/**
 * A single-key server's v3 OPRF key, derived from its v2 (ristretto255) private key (decision 056):
 * k₃ = HKDF-SHA256(k₂, info "zeroid/oprf-v3-key", 48 bytes) mod ℓ, as RFC 9380's hash_to_field
 * reduces 48 bytes for a bias below 2⁻¹²⁸. The existing key file and its backups therefore cover v3
 * too, and every process holding k₂ agrees on k₃ without a second secret to distribute. Knowing k₃
 * reveals nothing of k₂ (HKDF is one-way), and the two keys are independent for the OPRFs.
 */
export function v3KeyFromV2(v2PrivateKey: Uint8Array): Uint8Array {
  const wide = bytesToNumberBE(hkdf(sha256, v2PrivateKey, undefined, encoder.encode('zeroid/oprf-v3-key'), 48));
  const key = Fn.create(wide);
  // A zero key (probability 2⁻²⁵¹) would evaluate everything to the identity: refuse it loudly.
  if (key === 0n) throw new RangeError('The v3 key derived from this OPRF key is zero: generate a new key');
  return Fn.toBytes(key);
}
