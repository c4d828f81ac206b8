import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../storage/open-storage.ts';
import type { Storage } from '../storage/types.ts';
import { KeyDoesNotOpen, openKey } from './key-encryption.ts';
import {
  ID_TOKEN_TTL_SECONDS,
  KEY_ACTIVATION_MS,
  KEY_REFRESH_MS,
  ensureOidcKeys,
  loadOidcKeys,
  rotateSigningKeys,
} from './signing-keys.ts';
import { ownersOf, storageAdapter } from './storage-adapter.ts';

/** Sign in with ZeroID's keys and artifacts on a real SQLite database (decisions 023 and 038). */
let dataDir: string;
let storage: Storage;
const secret = new Uint8Array(randomBytes(32));
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-oidc-keys-'));
  storage = await openStorage({ dataDir });
});
afterAll(async () => {
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
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

  it('seals a key that an earlier version stored in clear, in place', async () => {
    const clear = JSON.stringify({
      kty: 'EC',
      crv: 'P-256',
      x: 'x',
      y: 'y',
      d: 'legacy-d',
      kid: 'zeroid-oidc-legacy',
      alg: 'ES256',
      use: 'sig',
    });
    await storage.oidc.addKey('signing', 'zeroid-oidc-legacy', clear, 0);
    const { signing } = await loadOidcKeys(storage.oidc, secret);
    expect(signing.find((k) => k.kid === 'zeroid-oidc-legacy')?.d).toBe('legacy-d');
    const stored = (await storage.oidc.keys('signing')).find((k) => k.kid === 'zeroid-oidc-legacy')!;
    expect(stored.secret).toMatch(/^v1\./);
    expect(stored.secret).not.toContain('legacy-d');
    await storage.oidc.removeKey('zeroid-oidc-legacy');
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
