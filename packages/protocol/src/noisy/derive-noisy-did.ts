import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { deriveDidKey, type Ed25519PublicKeyOf } from '../did-key.ts';

const DID_LABEL = new TextEncoder().encode('zeroid/noisy/did/v1');

/**
 * The `did:key` of a noisy biometric's identity: the protocol's own DID derivation of
 * SHA-256(label ‖ seed), under a label of its own, so it is unrelated to the identity's Semaphore
 * secret and to any exact text's DID. Every reading that opens a locker gives the same seed, so the
 * same DID; the seed is random, so the DID says nothing of the template.
 */
export function deriveNoisyDid(seed: Uint8Array, publicKeyOf?: Ed25519PublicKeyOf): string {
  return deriveDidKey(sha256(concatBytes(DID_LABEL, seed)), publicKeyOf).did;
}
