import { bytesToHex } from '@noble/hashes/utils.js';
import { hkdfSecret } from './hkdf-secret.ts';

/**
 * The ID tag: HKDF(oprf(id), "zeroid/id-tag/v1") in lowercase hex. Stored under a UNIQUE index so
 * one ID registers once, as far as the tag was derived here: the server derives it itself on the raw
 * path, but a zero-knowledge registration's tag is not proven to come from this function (decision
 * 016). Not reversible, nor testable against a guessed ID, without the server key.
 */
export function deriveIdTag(oprfId: Uint8Array): string {
  return bytesToHex(hkdfSecret(oprfId, 'zeroid/id-tag/v1'));
}
