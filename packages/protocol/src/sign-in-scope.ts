import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { SNARK_SCALAR_FIELD } from './field.ts';

/** SHA-256 of a domain-separated string, reduced into the BN254 scalar field, as canonical decimal. */
function hashToField(text: string): string {
  const digest = sha256(new TextEncoder().encode(text));
  return (BigInt(`0x${bytesToHex(digest)}`) % SNARK_SCALAR_FIELD).toString();
}

/**
 * The Semaphore scope of a "Sign in with ZeroID" proof for one site (decision 023):
 * `SHA-256("zeroid/oidc-sector/v1" || 0x00 || client_id) mod r`, in canonical decimal, for a client
 * whose sector is its own `client_id`. The nullifier of a proof is Poseidon(scope, secret): one person
 * has exactly one per sector, and the nullifiers of two sectors cannot be linked without the secret.
 * The server always computes the scope from the client it is signing in to, never from the request.
 */
export function signInScope(clientId: string): string {
  return hashToField(`zeroid/oidc-sector/v1\u0000${clientId}`);
}

/**
 * The scope for a client registered with a `sector_identifier_uri` (decisions 029 and 038): the
 * sector is that URI itself, whole, so every client registered with this very document (each listed
 * in it, OpenID Connect Core §8.1) gets one pseudonym per person, and a document at another path of
 * the same host is another sector. `SHA-256("zeroid/oidc-sector-uri/v1" || 0x00 || uri) mod r`, the
 * URI as the WHATWG URL parser writes it: its own domain tag, so no `client_id` spelt the same shares it.
 */
export function signInSectorUriScope(sectorIdentifierUri: string): string {
  return hashToField(`zeroid/oidc-sector-uri/v1\u0000${new URL(sectorIdentifierUri).href}`);
}

/**
 * The message of a sign-in proof: binds the one-time challenge to one authorization request (its
 * interaction id), so a proof made for one login completes no other, and its challenge is consumed
 * once. `SHA-256("zeroid/oidc-login/v1" || 0x00 || interaction || 0x00 || challenge) mod r`.
 */
export function signInMessage(challenge: string, interaction: string): string {
  return hashToField(`zeroid/oidc-login/v1\u0000${interaction}\u0000${challenge}`);
}

/**
 * The OpenID `sub` for a nullifier: base64url (no padding) of its 32 big-endian bytes, 43 characters.
 * Stable for one person at one site; nothing else about the person is in it.
 */
export function nullifierSubject(nullifier: string): string {
  return base64urlnopad.encode(hexToBytes(BigInt(nullifier).toString(16).padStart(64, '0')));
}
