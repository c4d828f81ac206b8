import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningPostgres } from '../../test/embedded-postgres.ts';
import { openStorage } from './open-storage.ts';
import { openSqliteFile } from './sqlite-file.ts';
import type { Storage } from './types.ts';

/**
 * One contract, two databases: every case runs against SQLite (a temp file) and a real PostgreSQL
 * started here. Each case opens a fresh database, so cases cannot lean on each other.
 */
interface Backend {
  name: string;
  open(): Promise<{ storage: Storage; reopen: () => Promise<Storage> }>;
}

let postgres: RunningPostgres;
let databases = 0;
const dirs: string[] = [];

beforeAll(async () => {
  postgres = await startEmbeddedPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-contract-'));
      dirs.push(dataDir);
      return { storage: await openStorage({ dataDir }), reopen: () => openStorage({ dataDir }) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const name = `contract_${++databases}`;
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      const url = postgres.url.replace(/\/zeroid$/, `/${name}`);
      return {
        storage: await openStorage({ databaseUrl: url, dataDir: '' }),
        reopen: () => openStorage({ databaseUrl: url, dataDir: '' }),
      };
    },
  },
];

const identity = (n: number) => ({ commitment: String(1000 + n), idTag: `tag-${n}`, did: `did:key:z6Mk${n}` });

describe.each(backends)('storage contract on $name', (backend) => {
  it('assigns leaf indexes 0, 1, 2… and finds identities by commitment and DID', async () => {
    const { storage } = await backend.open();
    expect(await storage.identities.register(identity(0))).toEqual({ inserted: true, leafIndex: 0 });
    expect(await storage.identities.register(identity(1))).toEqual({ inserted: true, leafIndex: 1 });
    expect(await storage.identities.register(identity(2))).toEqual({ inserted: true, leafIndex: 2 });
    expect(await storage.identities.findByCommitment('1001')).toMatchObject({ leafIndex: 1, idTag: 'tag-1', did: 'did:key:z6Mk1' });
    expect((await storage.identities.findByDid('did:key:z6Mk2'))?.createdAt).toBeInstanceOf(Date);
    expect(await storage.identities.findByCommitment('999')).toBeUndefined();
    expect(await storage.identities.count()).toBe(3);
    await storage.close();
  });

  it('refuses a second registration of the same commitment, ID tag or DID, and changes nothing', async () => {
    const { storage } = await backend.open();
    await storage.identities.register(identity(0));
    expect(await storage.identities.register({ ...identity(1), commitment: '1000' })).toEqual({ inserted: false });
    expect(await storage.identities.register({ ...identity(1), idTag: 'tag-0' })).toEqual({ inserted: false });
    expect(await storage.identities.register({ ...identity(1), did: 'did:key:z6Mk0' })).toEqual({ inserted: false });
    expect(await storage.identities.count()).toBe(1);
    expect(await storage.identities.register(identity(1))).toEqual({ inserted: true, leafIndex: 1 });
    await storage.close();
  });

  it('inserts exactly one of 50 concurrent identical registrations', async () => {
    const { storage } = await backend.open();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => storage.identities.register(identity(7))));
    expect(outcomes.filter((o) => o.inserted)).toHaveLength(1);
    expect(await storage.identities.count()).toBe(1);
    await storage.close();
  });

  it('keeps leaf indexes gapless and unique under 100 concurrent distinct registrations', async () => {
    const { storage } = await backend.open();
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, n) => storage.identities.register(identity(n))));
    const indexes = outcomes.map((o) => (o.inserted ? o.leafIndex : -1)).sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 100 }, (_, n) => n));
    const commitments = await storage.identities.commitmentsFrom(0);
    expect(commitments).toHaveLength(100);
    expect(await storage.identities.commitmentsFrom(98)).toEqual(commitments.slice(98));
    expect(await storage.identities.commitmentsFrom(10, 3)).toEqual(commitments.slice(10, 13));
    await storage.close();
  });

  it('imports a batch at the next leaf indexes, all or nothing', async () => {
    const { storage } = await backend.open();
    await storage.identities.register(identity(0));
    await storage.identities.importBatch(Array.from({ length: 2500 }, (_, n) => identity(n + 1)));
    expect(await storage.identities.count()).toBe(2501);
    expect((await storage.identities.findByCommitment('3500'))?.leafIndex).toBe(2500);
    await expect(storage.identities.importBatch([identity(9000), identity(5)])).rejects.toThrow();
    expect(await storage.identities.count()).toBe(2501);
    expect(await storage.identities.register(identity(9000))).toEqual({ inserted: true, leafIndex: 2501 });
    await storage.close();
  });

  it('keeps a root history: current, recently superseded, expired, unknown and 0', async () => {
    const { storage } = await backend.open();
    await storage.roots.record(1, '111');
    await storage.roots.record(1, '111');
    await storage.roots.record(2, '222');
    const now = new Date();
    expect(await storage.roots.latest()).toEqual({ size: 2, root: '222' });
    expect(await storage.roots.isAccepted('222', 60_000, now)).toBe(true);
    expect(await storage.roots.isAccepted('111', 60_000, now)).toBe(true);
    expect(await storage.roots.isAccepted('111', 60_000, new Date(now.getTime() + 120_000))).toBe(false);
    expect(await storage.roots.isAccepted('222', 60_000, new Date(now.getTime() + 120_000))).toBe(true);
    expect(await storage.roots.isAccepted('333', 60_000, now)).toBe(false);
    expect(await storage.roots.isAccepted('0', 60_000, now)).toBe(false);
    await storage.close();
  });

  it('consumes a challenge exactly once, never after expiry, and purges expired ones', async () => {
    const { storage } = await backend.open();
    const now = new Date();
    await storage.challenges.issue('1', new Date(now.getTime() + 60_000));
    await storage.challenges.issue('2', new Date(now.getTime() - 1));
    await storage.challenges.issue('3', new Date(now.getTime() + 60_000));
    const results = await Promise.all(Array.from({ length: 20 }, () => storage.challenges.consume('1', now)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await storage.challenges.consume('2', now)).toBe(false);
    expect(await storage.challenges.consume('404', now)).toBe(false);
    expect(await storage.challenges.purgeExpired(now)).toBe(1);
    expect(await storage.challenges.consume('3', now)).toBe(true);
    expect(await storage.challenges.purgeExpired(new Date(now.getTime() + 120_000))).toBe(2);
    await storage.close();
  });

  it('keeps everything across close and reopen', async () => {
    const { storage, reopen } = await backend.open();
    await storage.identities.register(identity(0));
    await storage.identities.register(identity(1));
    await storage.roots.record(2, '222');
    await storage.close();
    const again = await reopen();
    expect(await again.identities.commitmentsFrom(0)).toEqual(['1000', '1001']);
    expect(await again.roots.latest()).toEqual({ size: 2, root: '222' });
    expect(await again.identities.register(identity(2))).toEqual({ inserted: true, leafIndex: 2 });
    await again.ping();
    await again.close();
  });
});

describe('SQLite durability settings', () => {
  it('opens the file in WAL mode with synchronous=FULL and a busy timeout', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-wal-'));
    dirs.push(dataDir);
    const database = openSqliteFile(dataDir);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(5000);
    database.close();
  });
});
