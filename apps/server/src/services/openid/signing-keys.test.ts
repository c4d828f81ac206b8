import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../storage/open-storage.ts';
import type { Storage } from '../../storage/types.ts';
import { KEY_ACTIVATION_MS, ensureOidcKeys, loadOidcKeys, rotateSigningKeys } from './signing-keys.ts';
import { storageAdapter } from './storage-adapter.ts';

/** Sign in with ZeroID's keys and artifacts on a real SQLite database (decision 023, migration 009). */
let dataDir: string;
let storage: Storage;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-oidc-keys-'));
  storage = await openStorage({ dataDir });
});
afterAll(async () => {
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('signing keys', () => {
  it('creates one first key however many processes race, rotates with the previous one published, and signs with a new key only once it is active', async () => {
    await Promise.all(Array.from({ length: 5 }, () => ensureOidcKeys(storage.oidc)));
    expect((await storage.oidc.keys('signing')).map((k) => k.kid)).toEqual(['zeroid-oidc-1']);
    expect(await storage.oidc.keys('cookie')).toHaveLength(1);

    const now = Date.now();
    const published = await rotateSigningKeys(storage.oidc, now);
    expect(published).toHaveLength(2);
    expect(published[1]).toBe('zeroid-oidc-1');
    const beforeActive = await loadOidcKeys(storage.oidc, now + 1000);
    expect(beforeActive.signing.map((k) => k.kid)).toEqual(['zeroid-oidc-1', published[0]]);
    const afterActive = await loadOidcKeys(storage.oidc, now + KEY_ACTIVATION_MS + 1);
    expect(afterActive.signing.map((k) => k.kid)).toEqual(published);
    expect(afterActive.signing[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });

    const again = await rotateSigningKeys(storage.oidc, now + 1);
    expect(again).toEqual([expect.any(String), published[0]]);
    expect((await storage.oidc.keys('signing')).map((k) => k.kid)).toEqual(again);
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
});
