import { sha256 } from '@noble/hashes/sha2.js';
import { base64urlnopad } from '@scure/base';
import type { Identity } from '@semaphore-protocol/identity';
import { deriveIdTag } from './derive-id-tag.ts';
import { signPossession, verifyPossession, type RegistrationSignatures } from './registration-signatures.ts';

/**
 * What a zero-knowledge erasure claims (decision 022). `idProof` is the OPRF output of the ID,
 * base64url: the ID tag is HKDF of it, so showing it proves the ID went through the OPRF under the
 * server's key, which the stored tag alone would not (a stolen database holds every tag, never this).
 */
export interface ZkEraseFields {
  commitment: string;
  did: string;
  idProof: string;
  challenge: string;
}

const encoder = new TextEncoder();
const OPRF_OUTPUT = /^[A-Za-z0-9_-]{86}$/;

/**
 * SHA-256 of "zeroid/erase/v1", challenge, commitment, ID tag and DID, joined by NUL bytes: its own
 * domain, so no registration signature can be replayed as an erasure, nor the reverse.
 */
function erasureMessage(fields: { challenge: string; commitment: string; idTag: string; did: string }): Uint8Array {
  return sha256(encoder.encode(['zeroid/erase/v1', fields.challenge, fields.commitment, fields.idTag, fields.did].join('\u0000')));
}

/**
 * The ID tag an erasure's `idProof` stands for, or undefined when it is not an OPRF output.
 * The server erases only the row holding this tag with the signed commitment and DID.
 */
export function erasureIdTag(idProof: string): string | undefined {
  if (typeof idProof !== 'string' || !OPRF_OUTPUT.test(idProof)) return undefined;
  return deriveIdTag(base64urlnopad.decode(idProof));
}

/**
 * Signs an erasure with the Semaphore identity and the DID key, both derived from oprf(bio), over the
 * challenge, the commitment, the DID and the ID tag derived from `oprfId`. Knowing the biometric
 * gives the two keys; knowing the ID gives `oprfId`: one without the other erases nothing.
 */
export function signErasure(
  identity: Identity,
  didSecretKey: Uint8Array,
  oprfId: Uint8Array,
  fields: { commitment: string; did: string; challenge: string },
): { fields: ZkEraseFields; signatures: RegistrationSignatures } {
  const idTag = deriveIdTag(oprfId);
  const signed: ZkEraseFields = { ...fields, idProof: base64urlnopad.encode(oprfId) };
  return { fields: signed, signatures: signPossession(identity, didSecretKey, erasureMessage({ ...fields, idTag })) };
}

/**
 * The ID tag of a well-signed erasure, or undefined: both signatures must be over this erasure's
 * message, under a Semaphore key whose commitment is `fields.commitment` and the DID's Ed25519 key.
 * Malformed values give undefined, never an exception.
 */
export function verifyErasure(fields: ZkEraseFields, signatures: RegistrationSignatures): string | undefined {
  const idTag = erasureIdTag(fields.idProof);
  if (idTag === undefined) return undefined;
  return verifyPossession(erasureMessage({ ...fields, idTag }), fields, signatures) ? idTag : undefined;
}
