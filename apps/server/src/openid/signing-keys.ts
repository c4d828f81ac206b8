import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { OidcRepository } from '../storage/types.ts';
import { isSealed, openKey, sealKey } from './key-encryption.ts';

/** A private signing key as oidc-provider takes it: an ES256 (P-256) JWK with its kid. */
export interface SigningJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  d: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** The first key's id is fixed, so processes starting together on a new database agree on one key. */
const FIRST_SIGNING_KID = 'zeroid-oidc-1';
const FIRST_COOKIE_KID = 'zeroid-cookie-1';

/**
 * A key added by a rotation is published at once but signs only after this long, so every process
 * (each re-reads the keys every KEY_REFRESH_MS) and every site that caches the JWKS for
 * JWKS_MAX_AGE_SECONDS publishes or knows it before any ID token names it.
 */
export const KEY_ACTIVATION_MS = 2 * 60_000;
/** How often a process re-reads the keys: well within KEY_ACTIVATION_MS. */
export const KEY_REFRESH_MS = Math.floor(KEY_ACTIVATION_MS / 4);
/** How long a site may cache the JWKS (its Cache-Control): less than the activation delay, with room to spare. */
export const JWKS_MAX_AGE_SECONDS = 60;
/** The lifetime of an ID token (and of the access token beside it). */
export const ID_TOKEN_TTL_SECONDS = 600;
/** Slack for clocks and for a site that checks a token in the second it expires. */
const CLOCK_SKEW_MS = 60_000;
/**
 * How long a key stays published after a newer one became active: a process may still sign with it
 * for one refresh interval, and a token it signed then is valid for its lifetime (decision 038).
 */
const RETIREMENT_MS = KEY_REFRESH_MS + ID_TOKEN_TTL_SECONDS * 1000 + CLOCK_SKEW_MS;

function newSigningKey(kid: string): SigningJwk {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y!, d: jwk.d!, kid, alg: 'ES256', use: 'sig' };
}

/**
 * Creates the first signing key and cookie secret if the database has none (first writer wins),
 * sealed under `secret`. The first key is dated one activation delay back: no process can have
 * published another key before it, so it may sign at once.
 */
export async function ensureOidcKeys(oidc: OidcRepository, secret: Uint8Array, now = Date.now()): Promise<void> {
  if ((await oidc.keys('signing')).length === 0) {
    const sealed = sealKey(secret, 'signing', FIRST_SIGNING_KID, JSON.stringify(newSigningKey(FIRST_SIGNING_KID)));
    await oidc.addKey('signing', FIRST_SIGNING_KID, sealed, now - KEY_ACTIVATION_MS);
  }
  if ((await oidc.keys('cookie')).length === 0) {
    await oidc.addKey('cookie', FIRST_COOKIE_KID, sealKey(secret, 'cookie', FIRST_COOKIE_KID, randomBytes(32).toString('base64url')), now);
  }
}

/** The stored keys of one purpose, opened (newest first); a key an earlier version stored in clear is sealed in place. */
async function openedKeys(oidc: OidcRepository, secret: Uint8Array, purpose: 'signing' | 'cookie') {
  const stored = await oidc.keys(purpose);
  for (const key of stored.filter((k) => !isSealed(k.secret))) {
    await oidc.replaceKeySecret(key.kid, key.secret, sealKey(secret, purpose, key.kid, key.secret));
  }
  return stored.map((key) => ({ ...key, secret: isSealed(key.secret) ? openKey(secret, purpose, key.kid, key.secret) : key.secret }));
}

export class NoActiveSigningKey extends Error {
  constructor() {
    super(`No signing key is older than ${KEY_ACTIVATION_MS / 1000} s yet: ID tokens are signed once one is.`);
    this.name = 'NoActiveSigningKey';
  }
}

/**
 * The keys a process uses: every stored signing key is published; the one that signs (listed first,
 * which oidc-provider picks) is the newest that is active, i.e. older than KEY_ACTIVATION_MS. A key
 * younger than that never signs.
 */
export async function loadOidcKeys(
  oidc: OidcRepository,
  secret: Uint8Array,
  now = Date.now(),
): Promise<{ signing: SigningJwk[]; cookie: string[] }> {
  await ensureOidcKeys(oidc, secret, now);
  const stored = await openedKeys(oidc, secret, 'signing');
  const active = stored.find((key) => key.createdAt <= now - KEY_ACTIVATION_MS);
  if (!active) throw new NoActiveSigningKey();
  const ordered = [active, ...stored.filter((key) => key !== active)];
  return {
    signing: ordered.map((key) => JSON.parse(key.secret) as SigningJwk),
    cookie: (await openedKeys(oidc, secret, 'cookie')).map((key) => key.secret),
  };
}

/**
 * Rotation: a new signing key, published at once and signing after KEY_ACTIVATION_MS. A key is
 * removed only once the key after it has been active for RETIREMENT_MS, so every key stays in the
 * JWKS until the last token it can have signed has expired, however often rotation runs.
 * Returns the kids now published, newest first.
 */
export async function rotateSigningKeys(oidc: OidcRepository, secret: Uint8Array, now = Date.now()): Promise<string[]> {
  await ensureOidcKeys(oidc, secret, now);
  const kid = `zeroid-oidc-${new Date(now)
    .toISOString()
    .replace(/[^0-9]/g, '')
    .slice(0, 14)}-${randomBytes(3).toString('hex')}`;
  await oidc.addKey('signing', kid, sealKey(secret, 'signing', kid, JSON.stringify(newSigningKey(kid))), now);
  const stored = await oidc.keys('signing');
  // Newest first: each key's successor is the one before it in the list.
  const retired = stored.filter((_key, i) => i > 0 && stored[i - 1]!.createdAt + KEY_ACTIVATION_MS + RETIREMENT_MS <= now);
  for (const key of retired) await oidc.removeKey(key.kid);
  return stored.filter((key) => !retired.includes(key)).map((key) => key.kid);
}
