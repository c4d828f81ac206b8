import { chmodSync, chownSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/open-storage.ts';
import { usePostgres } from '../support/use-postgres.ts';
import { startServerProcess, type ServerProcess } from '../server-process.ts';
import { report } from './chaos-settings.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { post } from '../support/post.ts';
import { removeTempDirs, tempDir } from '../support/temp-dir.ts';
import { until } from '../support/until.ts';

/**
 * The database fails under a running server: it is unreachable at start, it goes away mid-run and
 * comes back, the disk fills up, the data directory is read-only. Each time the server stays up,
 * reports not-ready or answers 503, acknowledges nothing it did not store, and recovers by itself.
 */
const postgres = usePostgres();
let oprfKey: string;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  oprfKey = Buffer.from((await generateOprfKeyPair()).privateKey).toString('base64url');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  removeTempDirs();
});

const person = (n: number) => ({ id_info: `fault-${n}`, bio_info: `fault biometric ${n}` });
const registered = async (url: string, n: number) =>
  ((await (await post(url, '/register', person(n))).json()) as Record<string, unknown>)['DID already generated'];
const status = async (url: string) => (await fetch(url)).status;

describe('PostgreSQL faults', () => {
  it('is not ready while the database is unreachable at start, answers 503 while it is gone mid-run, and recovers by itself', async () => {
    const proxy = await startFaultProxy(Number(new URL(postgres.url).port));
    const databaseUrl = await postgres.createDatabase();
    const viaProxy = new URL(databaseUrl);
    viaProxy.port = String(proxy.port);
    const server = await startServerProcess(
      { DATABASE_URL: viaProxy.toString(), DATA_DIR: tempDir('zeroid-chaos-db-'), OPRF_PRIVATE_KEY: oprfKey },
      { waitFor: 'alive' },
    );
    servers.push(server);
    try {
      // Unreachable at start: alive, not ready, and nothing is acknowledged.
      expect(await status(`${server.url}/livez`)).toBe(200);
      expect(await status(`${server.url}/healthz`)).toBe(503);
      const early = await post(server.url, '/register', person(0));
      expect(early.status).toBe(503);
      expect(((await early.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');

      await proxy.up();
      const readyAfterMs = await until(async () => (await status(`${server.url}/healthz`)) === 200, {
        what: 'ready',
        timeoutMs: 20_000,
        everyMs: 100,
      });
      expect(await registered(server.url, 1)).toBe(false);

      // Gone mid-run: 503s, not acknowledgements.
      await proxy.down();
      const during = await Promise.all([2, 3, 4].map((n) => post(server.url, '/register', person(n))));
      expect(during.map((r) => r.status)).toEqual([503, 503, 503]);
      expect((await post(server.url, '/verify', { bio_info: person(1).bio_info })).status).toBe(503);
      expect(await status(`${server.url}/healthz`)).toBe(503);
      expect(await status(`${server.url}/livez`)).toBe(200);

      // Back: the pool reconnects without a restart.
      await proxy.up();
      const recoveredAfterMs = await until(async () => (await status(`${server.url}/healthz`)) === 200, {
        what: 'recovered',
        timeoutMs: 20_000,
        everyMs: 100,
      });
      expect(await registered(server.url, 1)).toBe(true);
      expect(await registered(server.url, 2)).toBe(false);
      report('database-faults', { storage: 'PostgreSQL', readyAfterMs, recoveredAfterMs });

      const storage = await openStorage({ databaseUrl, dataDir: '' });
      expect(await storage.identities.count()).toBe(2);
      await storage.close();
    } finally {
      await server.stop();
      await proxy.close();
    }
  }, 90_000);
});

describe('SQLite disk faults', () => {
  it('answers 503 on a full disk, acknowledges nothing it could not store, and keeps serving', async () => {
    const dataDir = tempDir('zeroid-chaos-db-');
    // Fill the database most of the way, then cap it just above its size: the next pages cannot be had.
    const storage = await openStorage({ dataDir });
    await storage.identities.importBatch(
      Array.from({ length: 2000 }, (_, i) => ({
        commitment: String(10n ** 40n + BigInt(i)),
        idTag: `filler-${i}`,
        did: `did:key:zFiller${i}`,
      })),
    );
    await storage.close();
    const sizeMb =
      readdirSync(dataDir)
        .filter((f) => f.startsWith('zeroid.sqlite'))
        .reduce((sum, f) => sum + statSync(path.join(dataDir, f)).size, 0) /
      2 ** 20;

    const server = await startServerProcess({
      DATA_DIR: dataDir,
      OPRF_PRIVATE_KEY: oprfKey,
      SQLITE_MAX_SIZE_MB: (sizeMb + 0.05).toFixed(3),
    });
    servers.push(server);
    try {
      const outcomes: Array<{ n: number; status: number; acknowledged: boolean }> = [];
      for (let n = 0; n < 400 && !outcomes.some((o) => o.status === 503); n++) {
        const response = await post(server.url, '/register', person(n));
        const reply = (await response.json()) as Record<string, unknown>;
        outcomes.push({ n, status: response.status, acknowledged: reply['DID already generated'] === false });
        if (response.status === 503) expect(reply).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      }
      const full = outcomes.filter((o) => o.status === 503);
      expect(full.length, 'the capped database filled up').toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
      const acknowledged = outcomes.filter((o) => o.acknowledged);

      // Still up, still answering from what it has; the refused registration was not stored.
      expect(await status(`${server.url}/livez`)).toBe(200);
      for (const { n } of acknowledged.slice(-3)) {
        expect(await (await post(server.url, '/verify', { bio_info: person(n).bio_info })).json()).toEqual({
          'Verification Result': 'Success',
        });
      }
      expect(await (await post(server.url, '/verify', { bio_info: person(full[0]!.n).bio_info })).json()).toEqual({
        'Verification Result': 'Failure',
      });
      await server.stop();

      const reopened = await openStorage({ dataDir });
      expect(await reopened.identities.count()).toBe(2000 + acknowledged.length);
      await reopened.close();
      report('disk-full', { storage: 'SQLite', acknowledged: acknowledged.length, refused503: full.length, lost: 0 });
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('is not ready on a read-only data directory, and becomes ready once it is writable again', async () => {
    const dataDir = tempDir('zeroid-chaos-db-');
    const storage = await openStorage({ dataDir });
    await storage.close();
    // Root writes anywhere, so as root the server runs as `nobody`, for whom the directory is read-only.
    const asRoot = process.getuid?.() === 0;
    const nobody = 65534;
    chmodSync(dataDir, 0o555);
    const server = await startServerProcess(
      { DATA_DIR: dataDir, OPRF_PRIVATE_KEY: oprfKey },
      { waitFor: 'alive', ...(asRoot ? { uid: nobody } : {}) },
    );
    servers.push(server);
    try {
      expect(await status(`${server.url}/healthz`)).toBe(503);
      const refused = await post(server.url, '/register', person(1));
      expect(refused.status).toBe(503);
      expect(await status(`${server.url}/livez`)).toBe(200);

      if (asRoot) {
        for (const entry of [dataDir, ...readdirSync(dataDir).map((f) => path.join(dataDir, f))]) chownSync(entry, nobody, nobody);
      }
      chmodSync(dataDir, 0o755);
      const recoveredAfterMs = await until(async () => (await status(`${server.url}/healthz`)) === 200, {
        what: 'ready',
        timeoutMs: 20_000,
        everyMs: 100,
      });
      expect(await registered(server.url, 1)).toBe(false);
      report('read-only-data-dir', { storage: 'SQLite', recoveredAfterMs });
    } finally {
      await server.stop();
    }
  }, 90_000);
});
