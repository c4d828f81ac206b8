import { bytesToHex } from '@noble/hashes/utils.js';
import { hkdfSecret } from './hkdf-secret.ts';

/**
 * The ID tag: HKDF(oprf(id), "zeroid/id-tag/v1") in lowercase hex. Stored under a UNIQUE index so
 * one ID registers once; not reversible, nor testable against a guessed ID, without the server key.
 */
export function deriveIdTag(oprfId: Uint8Array): string {
  return bytesToHex(hkdfSecret(oprfId, 'zeroid/id-tag/v1'));
}
