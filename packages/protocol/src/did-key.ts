import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64urlnopad } from '@scure/base';
import { ProtocolInputError } from './errors.ts';
import { hkdfSecret } from './hkdf-secret.ts';

/** Multicodec prefix of an Ed25519 public key (ed25519-pub, 0xed as an unsigned varint). */
const ED25519_PUB = [0xed, 0x01] as const;

/** The Ed25519 public key of a 32-byte seed (RFC 8032 §5.1.5): noble's by default; the server passes libsodium's. */
export type Ed25519PublicKeyOf = (seed: Uint8Array) => Uint8Array;

/**
 * The person's W3C DID: `did:key` for an Ed25519 key whose seed is HKDF(oprf(bio), "zeroid/did-key/v1").
 * The same biometric always gives the same DID, and only its holder can sign for it.
 */
export function deriveDidKey(
  oprfBio: Uint8Array,
  publicKeyOf: Ed25519PublicKeyOf = ed25519.getPublicKey,
): { did: string; publicKey: Uint8Array; secretKey: Uint8Array } {
  const secretKey = hkdfSecret(oprfBio, 'zeroid/did-key/v1');
  const publicKey = publicKeyOf(secretKey);
  return { did: didKeyFromPublicKey(publicKey), publicKey, secretKey };
}

/** An Ed25519 `did:key` as we derive them: `z6Mk` (base58btc of 0xed01…), then the rest of the 34 bytes. */
export const DID_KEY_PATTERN = '^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{40,50}$';
const DID_KEY = new RegExp(DID_KEY_PATTERN);

/** True for a string shaped like one of our DIDs (`DID_KEY_PATTERN`); says nothing of whether it is registered. */
export const isDidKey = (value: string): boolean => DID_KEY.test(value);

/** `did:key:z…`: multibase base58btc of the multicodec-prefixed key (so always `did:key:z6Mk…`). */
export function didKeyFromPublicKey(publicKey: Uint8Array): string {
  return `did:key:z${base58.encode(new Uint8Array([...ED25519_PUB, ...publicKey]))}`;
}

/**
 * The Ed25519 public key inside a `did:key`, checked to be a valid curve point.
 * @throws ProtocolInputError for anything but an Ed25519 did:key.
 */
export function didKeyPublicKey(did: string): Uint8Array {
  const bad = () => new ProtocolInputError('INVALID_SIGNATURE', 'The DID is not an Ed25519 did:key.');
  if (!did.startsWith('did:key:z')) throw bad();
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(did.slice('did:key:z'.length));
  } catch {
    throw bad();
  }
  if (bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1]) throw bad();
  const publicKey = bytes.slice(2);
  try {
    ed25519.Point.fromBytes(publicKey);
  } catch {
    throw bad();
  }
  return publicKey;
}

/**
 * True only when `signature` (base64url) is the Ed25519 signature of `message` by the key inside
 * `did`, under RFC 8032's strict decoding rather than ZIP-215's looser rules (one signature, one
 * encoding). Malformed values give false, never an exception.
 */
export function verifyDidSignature(did: string, message: Uint8Array, signature: string): boolean {
  try {
    return ed25519.verify(base64urlnopad.decode(signature), message, didKeyPublicKey(did), { zip215: false });
  } catch {
    return false;
  }
}

/**
 * The W3C DID Core document of a `did:key`, as did:key resolvers build it (Ed25519VerificationKey2020,
 * the key's multibase as the fragment).
 */
export function didDocument(did: string) {
  didKeyPublicKey(did);
  const multibase = did.slice('did:key:'.length);
  const keyId = `${did}#${multibase}`;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/ed25519-2020/v1'],
    id: did,
    verificationMethod: [{ id: keyId, type: 'Ed25519VerificationKey2020', controller: did, publicKeyMultibase: multibase }],
    authentication: [keyId],
    assertionMethod: [keyId],
    capabilityInvocation: [keyId],
    capabilityDelegation: [keyId],
  };
}
