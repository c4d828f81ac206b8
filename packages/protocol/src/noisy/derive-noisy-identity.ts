import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { provingIdentityV3 } from '../v3/derive-registration.ts';

const SEED_LABEL = new TextEncoder().encode('zeroid/noisy/seed/v1');

/**
 * The Semaphore identity of a noisy biometric: the seed its lockers seal, hashed into the field
 * (SHA-256 under its own label, so it never equals an OPRF output of an exact text), then the protocol's
 * own Semaphore derivation. Every reading that opens a locker gives the same seed, so the same
 * commitment, and verification stays a membership proof of that commitment.
 */
export function deriveNoisyIdentity(seed: Uint8Array): { secretScalar: bigint; commitment: string } {
  return provingIdentityV3(bytesToNumberBE(sha256(concatBytes(SEED_LABEL, seed))) % SNARK_SCALAR_FIELD);
}
