import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { OidcRepository } from '../../storage/types.ts';

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
 * (each re-reads the keys at least this often) publishes it before any ID token names it.
 */
export const KEY_ACTIVATION_MS = 2 * 60_000;

function newSigningKey(kid: string): SigningJwk {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y!, d: jwk.d!, kid, alg: 'ES256', use: 'sig' };
}

/** Creates the first signing key and cookie secret if the database has none (first writer wins). */
export async function ensureOidcKeys(oidc: OidcRepository): Promise<void> {
  if ((await oidc.keys('signing')).length === 0) {
    await oidc.addKey('signing', FIRST_SIGNING_KID, JSON.stringify(newSigningKey(FIRST_SIGNING_KID)));
  }
  if ((await oidc.keys('cookie')).length === 0) {
    await oidc.addKey('cookie', FIRST_COOKIE_KID, randomBytes(32).toString('base64url'));
  }
}

/**
 * The keys a process uses: every stored signing key is published; the one that signs (listed first,
 * which oidc-provider picks) is the newest that is active, i.e. older than KEY_ACTIVATION_MS, or the
 * oldest of all when none is (a new database).
 */
export async function loadOidcKeys(oidc: OidcRepository, now = Date.now()): Promise<{ signing: SigningJwk[]; cookie: string[] }> {
  await ensureOidcKeys(oidc);
  const stored = await oidc.keys('signing');
  // With none active yet (a database younger than the activation delay), the oldest key signs: the
  // first one, which every process has published from the start.
  const active = stored.find((key) => key.createdAt <= now - KEY_ACTIVATION_MS) ?? stored.at(-1)!;
  const ordered = [active, ...stored.filter((key) => key !== active)];
  return {
    signing: ordered.map((key) => JSON.parse(key.secret) as SigningJwk),
    cookie: (await oidc.keys('cookie')).map((key) => key.secret),
  };
}

/**
 * Rotation: a new signing key, published at once and signing after KEY_ACTIVATION_MS; the previous
 * one stays published (ID tokens it signed still validate); older ones are removed.
 * Returns the kids now published, newest first.
 */
export async function rotateSigningKeys(oidc: OidcRepository, now = Date.now()): Promise<string[]> {
  await ensureOidcKeys(oidc);
  const kid = `zeroid-oidc-${new Date(now)
    .toISOString()
    .replace(/[^0-9]/g, '')
    .slice(0, 14)}-${randomBytes(3).toString('hex')}`;
  await oidc.addKey('signing', kid, JSON.stringify(newSigningKey(kid)), now);
  const stored = await oidc.keys('signing');
  for (const old of stored.slice(2)) await oidc.removeKey(old.kid);
  return stored.slice(0, 2).map((key) => key.kid);
}
