import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** The AES-256-GCM key for the stored keys, from the secret (decision 038); its own label. */
function keyEncryptionKey(secret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), 'zeroid/oidc-key-encryption/v1', 32));
}

/** Binds a ciphertext to its row: a sealed signing key moved to another kid or purpose does not open. */
const associatedData = (purpose: string, kid: string) => Buffer.from(`zeroid/oidc-key/v1\u0000${purpose}\u0000${kid}`);

/**
 * A key (a private JWK, a cookie secret) as the database keeps it: `v1.<iv>.<ciphertext and tag>`,
 * base64url, AES-256-GCM under a key derived from a secret that is not in the database. A copy of
 * the database then holds no key that signs.
 */
export function sealKey(secret: Uint8Array, purpose: string, kid: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyEncryptionKey(secret), iv);
  cipher.setAAD(associatedData(purpose, kid));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** True for a value `sealKey` wrote; false for a key stored in clear by an earlier version. */
export const isSealed = (stored: string) => stored.startsWith(`${VERSION}.`);

export class KeyDoesNotOpen extends Error {
  constructor(readonly kid: string) {
    super(
      `The OpenID key "${kid}" does not decrypt with this process's key secret: every process on one database needs the same ` +
        'OIDC_KEY_SECRET (or, in the single-key mode, the same OPRF key). See docs/sign-in-with-zeroid.md, "Keys".',
    );
    this.name = 'KeyDoesNotOpen';
  }
}

/** The plaintext of a sealed key; throws KeyDoesNotOpen under another secret, or for a moved or altered row. */
export function openKey(secret: Uint8Array, purpose: string, kid: string, stored: string): string {
  const [version, iv, body] = stored.split('.');
  if (version !== VERSION || iv === undefined || body === undefined) throw new KeyDoesNotOpen(kid);
  const bytes = Buffer.from(body, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyEncryptionKey(secret), Buffer.from(iv, 'base64url'));
    decipher.setAAD(associatedData(purpose, kid));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new KeyDoesNotOpen(kid);
  }
}
