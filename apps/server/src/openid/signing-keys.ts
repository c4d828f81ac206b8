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
/**
 * How long a signing key found in clear stays published once it is sealed (decision 049): its
 * replacement waits KEY_ACTIVATION_MS before it signs, every process has switched one refresh
 * interval later, and a site checks an ID token as it receives it (a minute of slack). It was in
 * clear in older files and backups, so it is treated as compromised: ID tokens it signed outlive it
 * only as id_token_hints, which logout then no longer accepts.
 */
export const COMPROMISED_RETIREMENT_MS = KEY_ACTIVATION_MS + KEY_REFRESH_MS + CLOCK_SKEW_MS;
/** How far the clock of a host running `rotate-keys` may be from the database's (decision 049). */
export const MAX_CLOCK_DISAGREEMENT_MS = CLOCK_SKEW_MS;

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

/**
 * Keys an earlier version stored in clear (decision 038 sealed them in place; decision 049): their
 * bytes were in the database file, its WAL and its backups, so each is treated as compromised. It is
 * sealed (one process wins the conditional UPDATE) and dated for retirement: a cookie secret at once,
 * a signing key once its replacement has taken over (COMPROMISED_RETIREMENT_MS). Every process then
 * makes sure each key dated for retirement has its successor, under a kid derived from the old one,
 * so that however many processes race exactly one successor is stored and none of them ever reads a
 * moment without a live cookie secret: a new signing key, which waits the activation delay like any
 * other, and a new cookie secret, which signs at once. Then the freed bytes are scrubbed (on SQLite a
 * truncating checkpoint: the clear values leave the file and the WAL). A sealed key that migration
 * 021 marked compromised (stored before it, so perhaps sealed in place by decision 038's release and
 * in clear in older backups) takes the same path, its sealing aside (decision 055).
 */
async function retireClearKeys(oidc: OidcRepository, secret: Uint8Array, now: number): Promise<void> {
  let retired = false;
  for (const purpose of ['signing', 'cookie'] as const) {
    const retireAt = purpose === 'signing' ? now + COMPROMISED_RETIREMENT_MS : now;
    for (const key of await oidc.keys(purpose)) {
      if (!isSealed(key.secret)) {
        if (await oidc.replaceKeySecret(key.kid, key.secret, sealKey(secret, purpose, key.kid, key.secret), retireAt)) retired = true;
      } else if (key.compromised && key.retireAt === undefined) {
        // Sealed, but stored before migration 021: perhaps once in clear (decision 055).
        if (await oidc.retireCompromisedKey(key.kid, retireAt)) retired = true;
      }
    }
    const stored = await oidc.keys(purpose);
    for (const key of stored.filter((k) => k.retireAt !== undefined)) {
      const kid = `${key.kid}-successor`;
      if (stored.some((k) => k.kid === kid)) continue;
      const value = purpose === 'signing' ? JSON.stringify(newSigningKey(kid)) : randomBytes(32).toString('base64url');
      await oidc.addKey(purpose, kid, sealKey(secret, purpose, kid, value), now);
    }
  }
  if (retired) await oidc.scrubFreed();
}

/** The stored keys of one purpose, opened (newest first), without those retired. */
async function openedKeys(oidc: OidcRepository, secret: Uint8Array, purpose: 'signing' | 'cookie', now: number) {
  const stored = (await oidc.keys(purpose)).filter((key) => key.retireAt === undefined || key.retireAt > now);
  return stored.map((key) => ({ ...key, secret: openKey(secret, purpose, key.kid, key.secret) }));
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
 * younger than that never signs. Keys found in clear are sealed and retired on the way
 * (`retireClearKeys`), and those whose retirement is due are deleted. Times are the database's
 * (decision 049), unless a test gives `now`.
 */
export async function loadOidcKeys(
  oidc: OidcRepository,
  secret: Uint8Array,
  now?: number,
): Promise<{ signing: SigningJwk[]; cookie: string[] }> {
  const at = now ?? (await oidc.clock());
  await ensureOidcKeys(oidc, secret, at);
  await retireClearKeys(oidc, secret, at);
  if ((await oidc.removeRetiredKeys(at)) > 0) await oidc.scrubFreed();
  const stored = await openedKeys(oidc, secret, 'signing', at);
  const active = stored.find((key) => key.createdAt <= at - KEY_ACTIVATION_MS);
  if (!active) throw new NoActiveSigningKey();
  const ordered = [active, ...stored.filter((key) => key !== active)];
  return {
    signing: ordered.map((key) => JSON.parse(key.secret) as SigningJwk),
    cookie: (await openedKeys(oidc, secret, 'cookie', at)).map((key) => key.secret),
  };
}

export class ClocksDisagree extends Error {
  constructor(readonly differenceMs: number) {
    super(
      `This host's clock is ${Math.round(Math.abs(differenceMs) / 1000)} s ${differenceMs > 0 ? 'ahead of' : 'behind'} the database's. ` +
        `Keys are dated by the database's clock; set this host's clock right (within ${MAX_CLOCK_DISAGREEMENT_MS / 1000} s) and run rotate-keys again.`,
    );
    this.name = 'ClocksDisagree';
  }
}

/**
 * The database's time, for a rotation run from another host (`npm run oidc -- rotate-keys`): refused
 * when this host's clock disagrees with it by more than MAX_CLOCK_DISAGREEMENT_MS, which says that
 * one of the two clocks is wrong (decision 049).
 */
export async function agreedClock(oidc: OidcRepository, localNow = Date.now()): Promise<number> {
  const now = await oidc.clock();
  if (Math.abs(localNow - now) > MAX_CLOCK_DISAGREEMENT_MS) throw new ClocksDisagree(localNow - now);
  return now;
}

/**
 * Rotation: a new signing key, published at once and signing after KEY_ACTIVATION_MS. A key is
 * removed only once the key after it has been active for RETIREMENT_MS, so every key stays in the
 * JWKS until the last token it can have signed has expired, however often rotation runs; the key
 * that signs and every key newer than it are never removed. `now` is the database's time (by
 * default; decision 049): a host with a skewed clock can neither date keys wrongly nor remove the
 * active one early. Returns the kids now published, newest first.
 */
export async function rotateSigningKeys(oidc: OidcRepository, secret: Uint8Array, now?: number): Promise<string[]> {
  const at = now ?? (await oidc.clock());
  await ensureOidcKeys(oidc, secret, at);
  await addSigningKey(oidc, secret, at);
  const stored = (await oidc.keys('signing')).filter((key) => key.retireAt === undefined || key.retireAt > at);
  // Newest first: each key's successor is the one before it in the list, and only keys older than
  // the active one (after it in the list) may go.
  const activeAt = stored.findIndex((key) => key.createdAt <= at - KEY_ACTIVATION_MS);
  const retired = stored.filter(
    (_key, i) => activeAt >= 0 && i > activeAt && stored[i - 1]!.createdAt + KEY_ACTIVATION_MS + RETIREMENT_MS <= at,
  );
  for (const key of retired) await oidc.removeKey(key.kid);
  if (retired.length > 0) await oidc.scrubFreed();
  return stored.filter((key) => !retired.includes(key)).map((key) => key.kid);
}

/** A new key, its id its date (so ids sort by age in a listing) and random digits (two rotations in one second). */
async function addSigningKey(oidc: OidcRepository, secret: Uint8Array, now: number): Promise<void> {
  const kid = `zeroid-oidc-${new Date(now)
    .toISOString()
    .replace(/[^0-9]/g, '')
    .slice(0, 14)}-${randomBytes(3).toString('hex')}`;
  await oidc.addKey('signing', kid, sealKey(secret, 'signing', kid, JSON.stringify(newSigningKey(kid))), now);
}
