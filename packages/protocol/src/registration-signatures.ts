import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { Identity } from '@semaphore-protocol/identity';
import { verifyDidSignature } from './did-key.ts';
import { ProtocolInputError } from './errors.ts';
import { SNARK_SCALAR_FIELD, isFieldElement } from './field.ts';
import { isDegenerateCommitment, isSemaphorePublicKey } from './semaphore-public-key.ts';

/** What a zero-knowledge registration claims: all derived in the browser, none of it raw. */
export interface ZkRegisterFields {
  commitment: string;
  idTag: string;
  did: string;
  challenge: string;
}

/** Proof of possession of both keys behind a registration. Numbers are canonical decimal strings. */
export interface RegistrationSignatures {
  semaphore: { publicKey: [string, string]; signature: { R8: [string, string]; S: string } };
  /** base64url Ed25519 signature over the same message bytes. */
  did: string;
}

const encoder = new TextEncoder();
const ID_TAG = /^[0-9a-f]{64}$/;

/**
 * SHA-256 of "zeroid/register/v1", challenge, commitment, ID tag and DID, joined by NUL bytes. None of
 * the four values can hold a NUL (decimal, hex, base58), so no two registrations encode alike.
 */
function messageBytes(fields: ZkRegisterFields): Uint8Array {
  return sha256(encoder.encode(['zeroid/register/v1', fields.challenge, fields.commitment, fields.idTag, fields.did].join('\u0000')));
}

/**
 * The message both keys sign: SHA-256 over a domain-separated encoding of every field, reduced into
 * the BN254 scalar field for the EdDSA-Poseidon signature. Binding the one-time challenge makes a
 * captured registration useless to replay; binding the ID tag and DID stops a thief from pairing
 * someone's commitment with other values.
 */
export function registrationMessage(fields: ZkRegisterFields): bigint {
  return BigInt(`0x${bytesToHex(messageBytes(fields))}`) % SNARK_SCALAR_FIELD;
}

/**
 * Signs a registration with the Semaphore identity (EdDSA-Poseidon) and the DID key (Ed25519).
 *
 * @throws ProtocolInputError (DEGENERATE_KEY) for an identity whose public key is the identity point
 * or any other point outside the prime-order subgroup: the browser refuses to register it, as the
 * server would.
 */
export function signRegistration(identity: Identity, didSecretKey: Uint8Array, fields: ZkRegisterFields): RegistrationSignatures {
  const [x, y] = identity.publicKey;
  if (!isSemaphorePublicKey([x, y]) || isDegenerateCommitment(fields.commitment)) {
    throw new ProtocolInputError('DEGENERATE_KEY', 'This identity has a degenerate key and cannot be registered.');
  }
  return signPossession(identity, didSecretKey, messageBytes(fields));
}

/** Both signatures over `message` (the Semaphore one over it reduced into the field), unchecked. */
export function signPossession(identity: Identity, didSecretKey: Uint8Array, message: Uint8Array): RegistrationSignatures {
  const [x, y] = identity.publicKey;
  const signature = identity.signMessage(BigInt(`0x${bytesToHex(message)}`) % SNARK_SCALAR_FIELD);
  return {
    semaphore: {
      publicKey: [x.toString(), y.toString()],
      signature: { R8: [signature.R8[0].toString(), signature.R8[1].toString()], S: signature.S.toString() },
    },
    did: base64urlnopad.encode(ed25519.sign(message, didSecretKey)),
  };
}

/**
 * True when a registration shows a Semaphore key that must never become a leaf: a public key off
 * the curve or outside the prime-order subgroup (the identity point, the key of the secret 0,
 * included), or a commitment of a small-order point, whatever key comes with it. Malformed numbers
 * are not degenerate: `verifyRegistration` refuses those.
 */
export function isDegenerateRegistration(fields: ZkRegisterFields, signatures: RegistrationSignatures): boolean {
  try {
    if (typeof fields.commitment === 'string' && isDegenerateCommitment(fields.commitment)) return true;
    const [x, y] = signatures.semaphore.publicKey;
    if (!isFieldElement(x) || !isFieldElement(y)) return false;
    return !isSemaphorePublicKey([BigInt(x), BigInt(y)]);
  } catch {
    return false;
  }
}

/**
 * True only when the Semaphore signature verifies under a public key whose commitment is
 * `fields.commitment`, that key is a point of the prime-order subgroup other than the identity
 * (`isSemaphorePublicKey`; zk-kit's `verifySignature` checks only that it is on the curve, and clears
 * the cofactor, so a small-order key signs without any secret), and the Ed25519 signature verifies
 * under the key inside `fields.did`. Malformed values give false, never an exception.
 */
export function verifyRegistration(fields: ZkRegisterFields, signatures: RegistrationSignatures): boolean {
  if (typeof fields.idTag !== 'string' || !ID_TAG.test(fields.idTag)) return false;
  return verifyPossession(messageBytes(fields), fields, signatures);
}

/**
 * True only when both signatures are over `message`: the Semaphore one under a prime-order key
 * whose commitment is `fields.commitment`, the Ed25519 one under the key inside `fields.did`
 * (`verifyRegistration` says what is checked and why). Shared by registration and erasure.
 */
export function verifyPossession(
  message: Uint8Array,
  fields: { commitment: string; challenge: string; did: string },
  signatures: RegistrationSignatures,
): boolean {
  try {
    const { publicKey, signature } = signatures.semaphore;
    const numbers = [...publicKey, ...signature.R8, signature.S, fields.commitment, fields.challenge];
    if (!numbers.every(isFieldElement)) return false;
    const point: [bigint, bigint] = [BigInt(publicKey[0]), BigInt(publicKey[1])];
    if (!isSemaphorePublicKey(point) || isDegenerateCommitment(fields.commitment)) return false;
    if (Identity.generateCommitment(point).toString() !== fields.commitment) return false;
    const semaphoreOk = Identity.verifySignature(
      BigInt(`0x${bytesToHex(message)}`) % SNARK_SCALAR_FIELD,
      { R8: [BigInt(signature.R8[0]), BigInt(signature.R8[1])], S: BigInt(signature.S) },
      point,
    );
    if (!semaphoreOk) return false;
    return verifyDidSignature(fields.did, message, signatures.did);
  } catch {
    return false;
  }
}
