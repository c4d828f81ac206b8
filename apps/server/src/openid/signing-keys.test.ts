import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/types.ts';
import { KeyDoesNotOpen, openKey } from './key-encryption.ts';
import { mintToken, verifiesAgainst } from '../../test/es256-token.ts';
import {
  agreedClock,
  ClocksDisagree,
  COMPROMISED_RETIREMENT_MS,
  ID_TOKEN_TTL_SECONDS,
  KEY_ACTIVATION_MS,
  KEY_REFRESH_MS,
  ensureOidcKeys,
  loadOidcKeys,
  rotateSigningKeys,
} from './signing-keys.ts';
import { ownersOf, storageAdapter } from './storage-adapter.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

/** Sign in with ZeroID's keys and artifacts on a real SQLite database (decisions 023 and 038). */
let dataDir: string;
let storage: Storage;
const secret = new Uint8Array(randomBytes(32));
beforeAll(async () => {
  dataDir = tempDir('zeroid-oidc-keys-');
  storage = await openStorage({ dataDir });
});
afterAll(async () => {
  await storage.close();
  removeTempDirs();
});

/** Which of `needles` (text, and base64url decoded to bytes) any file under `dir` holds. */
const filesHolding = (dir: string, needles: string[]) =>
  readdirSync(dir).flatMap((name) => {
    const bytes = readFileSync(path.join(dir, name));
    return needles.filter((n) => bytes.includes(n) || bytes.includes(Buffer.from(n, 'base64url'))).map((n) => `${name}: ${n.slice(0, 6)}…`);
  });

const signingKids = async () => (await storage.oidc.keys('signing')).map((k) => k.kid);
const signer = async (now: number) => (await loadOidcKeys(storage.oidc, secret, now)).signing[0]!.kid;

describe('signing keys', () => {
  it('creates one first key however many processes race, sealed so that a copy of the database holds no key that signs', async () => {
    const now = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => ensureOidcKeys(storage.oidc, secret, now)));
    expect(await signingKids()).toEqual(['zeroid-oidc-1']);
    expect(await storage.oidc.keys('cookie')).toHaveLength(1);
    // The first key signs at once: nothing was published before it.
    const { signing, cookie } = await loadOidcKeys(storage.oidc, secret, now);
    expect(signing.map((k) => k.kid)).toEqual(['zeroid-oidc-1']);
    expect(signing[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
      d: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });

    // At rest: neither the private scalar nor the cookie secret, in any table or in the file's bytes.
    const rows = [...(await storage.oidc.keys('signing')), ...(await storage.oidc.keys('cookie'))];
    for (const row of rows) expect(row.secret).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    await storage.close();
    const file = ['zeroid.sqlite', 'zeroid.sqlite-wal'].map((name) => {
      try {
        return readFileSync(path.join(dataDir, name));
      } catch {
        return Buffer.alloc(0);
      }
    });
    for (const bytes of file) {
      expect(bytes.includes(signing[0]!.d)).toBe(false);
      expect(bytes.includes(Buffer.from(signing[0]!.d, 'base64url'))).toBe(false);
      expect(bytes.includes(cookie[0]!)).toBe(false);
    }
    storage = await openStorage({ dataDir });

    // Under another secret, and moved to another row, a key does not open.
    await expect(loadOidcKeys(storage.oidc, new Uint8Array(randomBytes(32)), now)).rejects.toBeInstanceOf(KeyDoesNotOpen);
    expect(() => openKey(secret, 'signing', 'zeroid-cookie-1', rows[0]!.secret)).toThrow(KeyDoesNotOpen);
    expect(() => openKey(secret, 'cookie', 'zeroid-oidc-1', rows[0]!.secret)).toThrow(KeyDoesNotOpen);
  });

  it('treats a key found in clear as compromised: sealed, replaced, scrubbed from the files, and unpublished once its successor signs (decision 049)', async () => {
    const dir = tempDir('zeroid-oidc-clear-keys-');
    const old = await openStorage({ dataDir: dir });
    try {
      // What an earlier version wrote: the signing key and the cookie secret in clear, an hour old.
      const t0 = await old.oidc.clock();
      const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
      const clear = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y!, d: jwk.d!, kid: 'zeroid-oidc-1', alg: 'ES256', use: 'sig' };
      const cookie = randomBytes(32).toString('base64url');
      await old.oidc.addKey('signing', 'zeroid-oidc-1', JSON.stringify(clear), t0 - 3_600_000);
      await old.oidc.addKey('cookie', 'zeroid-cookie-1', cookie, t0 - 3_600_000);

      // Five processes load the keys at once: one seals and replaces, and every one sees the same.
      const loaded = await Promise.all(Array.from({ length: 5 }, () => loadOidcKeys(old.oidc, secret, t0)));
      const signingKeys = await old.oidc.keys('signing');
      expect(signingKeys).toHaveLength(2);
      const successor = signingKeys[0]!;
      expect(successor.kid).toBe('zeroid-oidc-1-successor');
      expect(signingKeys[1]).toMatchObject({ kid: 'zeroid-oidc-1', retireAt: t0 + COMPROMISED_RETIREMENT_MS });
      for (const keys of loaded) {
        // The old key still signs (its successor waits the activation delay) and both are published…
        expect(keys.signing.map((k) => k.kid)).toEqual(['zeroid-oidc-1', successor.kid]);
        // …but its cookie secret, which forges interaction cookies, is replaced at once.
        expect(keys.cookie).toHaveLength(1);
        expect(keys.cookie[0]).not.toBe(cookie);
      }
      // No clear copy is left in any file under the data directory (sealed in place, WAL truncated).
      expect(filesHolding(dir, [clear.d, cookie])).toEqual([]);

      // A token someone minted from an old copy verifies against the JWKS until the key's retirement, never after.
      const forged = mintToken(clear, { iss: 'https://zeroid.example', sub: 'anyone', aud: 'site', exp: t0 / 1000 + 600 });
      const jwks = async (now: number) => ({ keys: (await loadOidcKeys(old.oidc, secret, now)).signing });
      expect(verifiesAgainst(forged, await jwks(t0 + KEY_ACTIVATION_MS))).toBe(true);
      expect((await loadOidcKeys(old.oidc, secret, t0 + KEY_ACTIVATION_MS)).signing[0]!.kid).toBe(successor.kid);
      expect(verifiesAgainst(forged, await jwks(t0 + COMPROMISED_RETIREMENT_MS))).toBe(false);
      expect((await old.oidc.keys('signing')).map((k) => k.kid)).toEqual([successor.kid]);
      expect(filesHolding(dir, [clear.d, cookie])).toEqual([]);
    } finally {
      await old.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never signs with a key younger than the activation delay, and keeps every key published until what it signed has expired, however often rotation runs', async () => {
    const t0 = Date.now();
    // Two rotations a minute apart: the first key still signs, then each new key once it is active.
    const k2 = (await rotateSigningKeys(storage.oidc, secret, t0))[0]!;
    const k3 = (await rotateSigningKeys(storage.oidc, secret, t0 + 60_000))[0]!;
    expect(await signingKids()).toEqual([k3, k2, 'zeroid-oidc-1']);
    expect(await signer(t0 + 60_001)).toBe('zeroid-oidc-1');
    expect(await signer(t0 + KEY_ACTIVATION_MS - 1)).toBe('zeroid-oidc-1');
    expect(await signer(t0 + KEY_ACTIVATION_MS)).toBe(k2);
    expect(await signer(t0 + 60_000 + KEY_ACTIVATION_MS)).toBe(k3);
    // Every published key is in the JWKS the provider is given.
    expect((await loadOidcKeys(storage.oidc, secret, t0 + 60_001)).signing.map((k) => k.kid).sort()).toEqual(
      [k3, k2, 'zeroid-oidc-1'].sort(),
    );

    // Ten more rotations, ten seconds apart: nothing is removed while a token it signed may be valid.
    for (let i = 1; i <= 10; i++) await rotateSigningKeys(storage.oidc, secret, t0 + 60_000 + i * 10_000);
    expect(await signingKids()).toHaveLength(13);
    // The first key stopped signing when k2 became active; a process may sign with it one refresh
    // interval longer, and that token lives ID_TOKEN_TTL_SECONDS (plus a minute for clocks).
    const firstRetires = t0 + KEY_ACTIVATION_MS + KEY_REFRESH_MS + ID_TOKEN_TTL_SECONDS * 1000 + 60_000;
    await rotateSigningKeys(storage.oidc, secret, firstRetires - 1);
    expect(await signingKids()).toContain('zeroid-oidc-1');
    const kept = await rotateSigningKeys(storage.oidc, secret, firstRetires);
    expect(kept).not.toContain('zeroid-oidc-1');
    expect(kept).toContain(k2);
    expect(await signingKids()).toEqual(kept);
  });

  it("dates keys by the database's clock, never removes the key that signs or a newer one, and refuses a host whose clock is off (decision 049)", async () => {
    const now = await storage.oidc.clock();
    expect(Math.abs(now - Date.now())).toBeLessThan(5_000);
    expect(await agreedClock(storage.oidc, now + 30_000)).toBeGreaterThanOrEqual(now);
    await expect(agreedClock(storage.oidc, Date.now() + 14 * 60_000)).rejects.toBeInstanceOf(ClocksDisagree);
    await expect(agreedClock(storage.oidc, Date.now() - 14 * 60_000)).rejects.toThrow(/behind the database's/);
    // Without a time of its own, rotation dates the new key by the database's clock.
    const before = await storage.oidc.clock();
    const earlier = await signingKids();
    await rotateSigningKeys(storage.oidc, secret);
    const { createdAt: dated } = (await storage.oidc.keys('signing')).find((k) => !earlier.includes(k.kid))!;
    expect(dated).toBeGreaterThanOrEqual(before);
    expect(dated).toBeLessThanOrEqual(await storage.oidc.clock());
    // However late a rotation runs, the key that signs then, and every newer one, stay.
    const far = dated + 24 * 3_600_000;
    const signing = await signer(far);
    const signedFrom = (await storage.oidc.keys('signing')).find((k) => k.kid === signing)!.createdAt;
    const newer = (await storage.oidc.keys('signing')).filter((k) => k.createdAt >= signedFrom).map((k) => k.kid);
    const published = await rotateSigningKeys(storage.oidc, secret, far);
    expect(newer).toContain(signing);
    for (const kid of newer) expect(published).toContain(kid);
    expect(published).toHaveLength(newer.length + 1);
  });
});

describe('the provider adapter', () => {
  it('consumes an authorization code for exactly one of many concurrent exchanges, and forgets expired artifacts', async () => {
    const codes = storageAdapter(storage.oidc)('AuthorizationCode');
    await codes.upsert('code-1', { grantId: 'grant-1', clientId: 'site' }, 60);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => codes.consume('code-1')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((o): unknown[] => (o.status === 'rejected' ? [o.reason] : []));
    expect(refusals).toHaveLength(9);
    for (const refusal of refusals) expect(refusal).toMatchObject({ error: 'invalid_grant' });
    expect(await codes.find('code-1')).toMatchObject({ clientId: 'site', consumed: expect.any(Number) });

    await codes.revokeByGrantId('grant-1');
    expect(await codes.find('code-1')).toBeUndefined();
    await codes.upsert('code-2', { clientId: 'site' }, 0);
    expect(await codes.find('code-2')).toBeUndefined();
    expect(await storage.oidc.purgeExpired()).toBeGreaterThanOrEqual(1);
  });

  it('indexes each record by the one pseudonym and the one site it is about, and forgets them by either (decision 036)', async () => {
    expect(ownersOf({ accountId: 'sub-a', clientId: 'site-a', grantId: 'g' })).toEqual({ accountId: 'sub-a', clientId: 'site-a' });
    expect(ownersOf({ params: { client_id: 'site-b' }, result: { login: { accountId: 'sub-b' } } })).toEqual({
      accountId: 'sub-b',
      clientId: 'site-b',
    });
    expect(ownersOf({ accountId: 'sub-c', authorizations: { 'site-c': { grantId: 'g' } } })).toEqual({
      accountId: 'sub-c',
      clientId: 'site-c',
    });
    expect(ownersOf({ params: { client_id: 'site-d' } })).toEqual({ accountId: undefined, clientId: 'site-d' });

    const adapter = storageAdapter(storage.oidc);
    await adapter('AccessToken').upsert('token-a', { accountId: 'sub-a', clientId: 'site-a' }, 60);
    await adapter('Grant').upsert('grant-a', { accountId: 'sub-a', clientId: 'site-a' }, 60);
    await adapter('AccessToken').upsert('token-b', { accountId: 'sub-b', clientId: 'site-b' }, 60);
    expect(await storage.oidc.forgetAccountAtClient('sub-a', 'site-b')).toBe(0);
    expect(await storage.oidc.forgetAccounts(['sub-a', 'sub-z'])).toBe(2);
    expect(await adapter('AccessToken').find('token-a')).toBeUndefined();
    expect(await adapter('AccessToken').find('token-b')).toMatchObject({ accountId: 'sub-b' });
    expect(await storage.oidc.forgetAccountAtClient('sub-b', 'site-b')).toBe(1);
  });
});
