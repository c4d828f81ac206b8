import { base64urlnopad } from '@scure/base';
import { derivePublicKey } from '@zk-kit/eddsa-poseidon';
import { decodePoint, encodePoint, pointFromAffine, type AffinePoint } from '../v3/baby-jubjub-group.ts';

/** Bytes of an issuer's private key: 32 random bytes, which EdDSA-Poseidon hashes (BLAKE-512) into its scalar. */
export const ISSUER_PRIVATE_KEY_BYTES = 32;

/** A new issuer private key, from the platform's CSPRNG. Keep it secret: it signs every credential. */
export function createIssuerKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(ISSUER_PRIVATE_KEY_BYTES));
}

/**
 * An issuer's public key as one line: base64url (no padding) of the 32-byte encoding of A = s·Base8
 * (y little-endian, the sign of x in the top bit), 43 characters. What `TRUSTED_ISSUERS` lists and
 * what a credential carries.
 */
export function issuerPublicKey(privateKey: Uint8Array): string {
  const [x, y] = derivePublicKey(privateKey);
  return base64urlnopad.encode(encodePoint(pointFromAffine({ x, y })!));
}

const REMEMBERED_KEYS = 256;
const parsed = new Map<string, AffinePoint>();

/**
 * The point of a public key as `issuerPublicKey` prints it, or undefined unless it is canonical, on
 * Baby Jubjub, in the prime-order subgroup and not the identity. A small-order key would let anyone
 * sign for it (S·Base8 = R8 + 8h·A holds with 8·A = 0 for R8 = S·Base8), and a key with a small-order
 * part would give an issuer's credentials a second spelling: both are refused here, once.
 */
export function parseIssuerKey(text: string): AffinePoint | undefined {
  const known = parsed.get(text);
  if (known) return known;
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined;
  const point = decodeKey(text);
  if (point) {
    // A bounded memory of valid keys: the subgroup check is a scalar multiplication, and a server
    // reads the same few issuers' keys in every credential.
    if (parsed.size >= REMEMBERED_KEYS) parsed.delete(parsed.keys().next().value!);
    parsed.set(text, point);
  }
  return point;
}

/** The 43 characters' point; undefined when their last one carries bits past the 32 bytes (base64url's padding bits must be zero: one key, one spelling). */
function decodeKey(text: string): AffinePoint | undefined {
  try {
    return decodePoint(base64urlnopad.decode(text))?.toAffine();
  } catch {
    return undefined;
  }
}
