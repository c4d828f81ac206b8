import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secret that binds a session's outcome to the screen that created it: 32 random bytes,
 * base64url, handed out once. Only its SHA-256 is stored; a 256-bit secret needs no slow hash, and a
 * stolen database gives nothing that reads an outcome.
 */
export function newSessionSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, secretHash: hashSessionSecret(secret) };
}

export function hashSessionSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** True when `secret` is the one the session was created with; constant time in the hash comparison. */
export function sessionSecretMatches(secretHash: string | null, secret: string | undefined): boolean {
  if (secretHash === null || secret === undefined) return false;
  const given = Buffer.from(hashSessionSecret(secret), 'hex');
  const stored = Buffer.from(secretHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
