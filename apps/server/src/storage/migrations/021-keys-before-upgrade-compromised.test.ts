import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { mintToken, verifiesAgainst } from '../../../test/es256-token.ts';
import { sealKey } from '../../openid/key-encryption.ts';
import { COMPROMISED_RETIREMENT_MS, KEY_ACTIVATION_MS, loadOidcKeys } from '../../openid/signing-keys.ts';
import { migrations } from '../migrate-to-latest.ts';
import { openStorage } from '../open-storage.ts';
import { SQLite } from '../sqlite/sqlite-driver.ts';
import { removeTempDirs, tempDir } from '../../../test/support/temp-dir.ts';

const dataDir = tempDir('zeroid-migration-021-');
afterAll(removeTempDirs);

it('retires every key stored before it with a successor, as a key found in clear, and none created after it (SQLite)', async () => {
  // A database as decision 038's release left it (migrated up to 019): the first signing key and cookie
  // secret sealed in place under their kids, dated a month back, with no retirement; in clear in old backups.
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'zeroid.sqlite')) }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('019-key-retirement');
  expect(error).toBeUndefined();
  await db.destroy();
  const secret = new Uint8Array(randomBytes(32));
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const clear = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y!, d: jwk.d!, kid: 'zeroid-oidc-1', alg: 'ES256', use: 'sig' };
  const file = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  const monthAgo = Date.now() - 30 * 86_400_000;
  const insert = file.prepare('INSERT INTO oidc_keys (kid, purpose, secret, created_at, retire_at) VALUES (?, ?, ?, ?, NULL)');
  insert.run('zeroid-oidc-1', 'signing', sealKey(secret, 'signing', 'zeroid-oidc-1', JSON.stringify(clear)), monthAgo);
  insert.run('zeroid-cookie-1', 'cookie', sealKey(secret, 'cookie', 'zeroid-cookie-1', 'old-cookie-secret'), monthAgo);
  file.close();

  const storage = await openStorage({ dataDir });
  try {
    const t0 = await storage.oidc.clock();
    const forged = mintToken(clear, { iss: 'https://zeroid.example', sub: 'anyone', aud: 'site', exp: t0 / 1000 + 86_400 });
    // Loaded at once: the old key still signs (its successor waits the activation delay), both published;
    // the old cookie secret is gone at once, its successor in its place.
    const first = await loadOidcKeys(storage.oidc, secret, t0);
    expect(first.signing.map((key) => key.kid)).toEqual(['zeroid-oidc-1', 'zeroid-oidc-1-successor']);
    expect(first.cookie).toHaveLength(1);
    expect(first.cookie).not.toContain('old-cookie-secret');
    const stored = await storage.oidc.keys('signing');
    expect(stored.find((key) => key.kid === 'zeroid-oidc-1')?.retireAt).toBe(t0 + COMPROMISED_RETIREMENT_MS);
    expect(stored.find((key) => key.kid === 'zeroid-oidc-1-successor')).not.toHaveProperty('compromised');
    // Once its successor signs, the old key is no longer published: a token minted from a backup's copy fails.
    expect(verifiesAgainst(forged, { keys: first.signing })).toBe(true);
    const later = await loadOidcKeys(storage.oidc, secret, t0 + Math.max(KEY_ACTIVATION_MS, COMPROMISED_RETIREMENT_MS));
    expect(later.signing.map((key) => key.kid)).toEqual(['zeroid-oidc-1-successor']);
    expect(verifiesAgainst(forged, { keys: later.signing })).toBe(false);
    // The successors, made after the migration, are kept: a day later they are still the keys.
    const dayLater = await loadOidcKeys(storage.oidc, secret, t0 + 86_400_000);
    expect(dayLater.signing.map((key) => key.kid)).toEqual(['zeroid-oidc-1-successor']);
    expect(dayLater.cookie).toEqual(later.cookie);
    expect((await storage.oidc.keys('cookie')).map((key) => key.kid)).toEqual(['zeroid-cookie-1-successor']);
  } finally {
    await storage.close();
  }
});
