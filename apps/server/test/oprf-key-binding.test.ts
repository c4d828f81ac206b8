import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SQLite } from '../src/storage/sqlite/sqlite-driver.ts';
import { generateOprfKeyPair, OPRF_SUITE, oprfPublicKey } from '@zeroid/protocol';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../src/oprf/check-key-fingerprint.ts';
import { usePostgres } from './support/use-postgres.ts';
import { runServerUntilExit, startServerProcess, type ServerProcess } from './server-process.ts';
import { postJson } from './support/post.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';

/**
 * The key must match the data: real server processes on SQLite and on a real PostgreSQL. A database
 * records its OPRF key's fingerprint on first use; a server with another key exits 1 saying what to
 * fix, instead of serving with it (and letting the same people register again under new values).
 */
const postgres = usePostgres();
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  removeTempDirs();
});

const newKey = async () => Buffer.from((await generateOprfKeyPair()).privateKey).toString('base64url');
const fingerprintOf = (privateKey: string) =>
  keyFingerprint({ purpose: 'oprf', suite: OPRF_SUITE, publicKey: oprfPublicKey(new Uint8Array(Buffer.from(privateKey, 'base64url'))) });
/** Every start here is about the key, not throughput: one thread each keeps a start-up short. */
const LEAN = { DERIVATION_THREADS: '0', PROOF_VERIFIER_THREADS: '1' };
const start = async (env: Record<string, string>) => {
  const server = await startServerProcess({ ...LEAN, ...env });
  running.push(server);
  return server;
};

function expectRefusal({ code, output }: { code: number | null; output: string }) {
  expect(code, output).toBe(1);
  expect(output).toContain('ZeroID refuses to start: This database was created with another OPRF key');
  expect(output).toContain('set OPRF_PRIVATE_KEY');
  expect(output).toContain('restore DATA_DIR/oprf-key.json');
  expect(output.match(/storage not ready/g) ?? [], 'a mismatch is not retried').toHaveLength(0);
}

describe('an OPRF key bound to its SQLite data directory', () => {
  it('lets an existing database adopt its key, then refuses another key and accepts the same one again', async () => {
    const dataDir = tempDir('zeroid-key-');
    const first = await start({ DATA_DIR: dataDir });
    expect((await postJson(first, '/register', { id_info: 'KEY-1', bio_info: 'key binding one' })).body).toMatchObject({
      'DID already generated': false,
    });
    await first.stop();

    // A database from before migration 007, as that migration leaves it: no fingerprint recorded yet.
    // (Rolling 007 itself back would leave later migrations, applied since, out of order.)
    const file = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
    file.exec('DELETE FROM key_fingerprints');
    file.close();
    const fileKey = (JSON.parse(readFileSync(path.join(dataDir, 'oprf-key.json'), 'utf8')) as { privateKey: string }).privateKey;

    const upgraded = await start({ DATA_DIR: dataDir });
    expect((await postJson(upgraded, '/verify', { bio_info: 'key binding one' })).body).toEqual({ 'Verification Result': 'Success' });
    await upgraded.stop();
    const recorded = new SQLite(path.join(dataDir, 'zeroid.sqlite'), { readonly: true });
    expect(recorded.prepare("SELECT fingerprint FROM key_fingerprints WHERE purpose = 'oprf'").get()).toEqual({
      fingerprint: fingerprintOf(fileKey),
    });
    recorded.close();

    expectRefusal(await runServerUntilExit({ ...LEAN, DATA_DIR: dataDir, OPRF_PRIVATE_KEY: await newKey() }));

    const sameKey = await start({ DATA_DIR: dataDir, OPRF_PRIVATE_KEY: fileKey });
    expect((await postJson(sameKey, '/verify', { bio_info: 'key binding one' })).body).toEqual({ 'Verification Result': 'Success' });
    expect((await postJson(sameKey, '/register', { id_info: 'KEY-1', bio_info: 'key binding one' })).body).toEqual({
      'DID already generated': true,
    });
    await sameKey.stop();
  }, 180_000);
});

describe('an OPRF key bound to its PostgreSQL database', () => {
  it('refuses a second instance started without OPRF_PRIVATE_KEY, which would have made a new random key', async () => {
    const databaseUrl = await postgres.createDatabase();
    const key = await newKey();
    const a = await start({ DATABASE_URL: databaseUrl, OPRF_PRIVATE_KEY: key, DATA_DIR: tempDir('zeroid-key-') });
    expect((await postJson(a, '/register', { id_info: 'KEY-PG', bio_info: 'key binding pg' })).body).toMatchObject({
      'DID already generated': false,
    });

    expectRefusal(await runServerUntilExit({ ...LEAN, DATABASE_URL: databaseUrl, DATA_DIR: tempDir('zeroid-key-') }));
    expectRefusal(
      await runServerUntilExit({ ...LEAN, DATABASE_URL: databaseUrl, OPRF_PRIVATE_KEY: await newKey(), DATA_DIR: tempDir('zeroid-key-') }),
    );

    // The same key joins, and sees what the first instance registered.
    const b = await start({ DATABASE_URL: databaseUrl, OPRF_PRIVATE_KEY: key, DATA_DIR: tempDir('zeroid-key-') });
    expect((await postJson(b, '/register', { id_info: 'KEY-PG', bio_info: 'someone else' })).body).toEqual({
      'DID already generated': true,
    });
    expect((await postJson(b, '/verify', { bio_info: 'key binding pg' })).body).toEqual({ 'Verification Result': 'Success' });
  }, 180_000);

  it('lets exactly one of two instances with different keys, started at once on a new database, serve it', async () => {
    const databaseUrl = await postgres.createDatabase();
    const keys = [await newKey(), await newKey()];
    const started = await Promise.allSettled(
      keys.map((key) => start({ DATABASE_URL: databaseUrl, OPRF_PRIVATE_KEY: key, DATA_DIR: tempDir('zeroid-key-') })),
    );
    expect(started.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = started.find((s) => s.status === 'rejected')!;
    expect(String(refused.reason)).toContain('server exited with 1');
    expect(String(refused.reason)).toContain('This database was created with another OPRF key');

    const winner = keys[started.findIndex((s) => s.status === 'fulfilled')]!;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const rows = (await client.query<{ purpose: string; fingerprint: string }>('SELECT purpose, fingerprint FROM key_fingerprints')).rows;
    await client.end();
    // The winner's key, and its protocol v3 key beside it (decision 058): the loser wrote neither.
    expect(rows.map((row) => row.purpose).sort()).toEqual(['oprf', 'oprf-v3']);
    expect(rows.find((row) => row.purpose === 'oprf')).toEqual({ purpose: 'oprf', fingerprint: fingerprintOf(winner) });
  }, 180_000);
});
