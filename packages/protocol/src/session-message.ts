import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { SNARK_SCALAR_FIELD } from './field.ts';

/**
 * The message of a proof made for a cross-device session: SHA-256 of the session id and the challenge,
 * reduced into the field. The scope stays the challenge, so the proof is single-use as always; the
 * message ties it to this one session, so a proof made for one screen cannot complete another.
 */
export function sessionMessage(challenge: string, session: string): string {
  const digest = sha256(new TextEncoder().encode(`zeroid/session/v1\u0000${session}\u0000${challenge}`));
  return (BigInt(`0x${bytesToHex(digest)}`) % SNARK_SCALAR_FIELD).toString();
}
