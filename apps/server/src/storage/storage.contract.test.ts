import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SQLite } from './sqlite/sqlite-driver.ts';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../test/support/use-postgres.ts';
import { registerInProcessesAtOnce } from '../../test/storage-process.ts';
import { freePort } from '../../test/server-process.ts';
import { REGISTRATION_LOCK } from './repositories/identity-rows.ts';
import { openStorage, type StorageOptions } from './open-storage.ts';
import { openSqliteFile, SQLITE_BUSY_TIMEOUT_MS } from './sqlite/sqlite-file.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

/**
 * One contract, two databases: every case runs against SQLite (a temp file) and a real PostgreSQL
 * started here. Each case opens a fresh database, so cases cannot lean on each other.
 */
interface Backend {
  name: string;
  /** Where a new, empty database lives. */
  fresh(): Promise<StorageOptions>;
  /** Options naming a database that cannot be reached or created. */
  unreachable(): Promise<StorageOptions>;
  /** Makes the open database refuse writes; returns how to undo it. */
  refuseWrites(options: StorageOptions): Promise<() => Promise<void>>;
}

const postgres = usePostgres();

afterAll(() => removeTempDirs());

const backends: Backend[] = [
  {
    name: 'SQLite',
    fresh: async () => ({ dataDir: tempDir('zeroid-contract-') }),
    async unreachable() {
      const file = path.join(tempDir('zeroid-contract-'), 'not-a-directory');
      writeFileSync(file, '');
      return { dataDir: path.join(file, 'data') };
    },
    async refuseWrites({ dataDir }) {
      // Another connection holds the write lock; ours waits busy_timeout, then gets SQLITE_BUSY.
      const other = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
      other.exec('BEGIN EXCLUSIVE');
      return async () => {
        other.exec('ROLLBACK');
        other.close();
      };
    },
  },
  {
    name: 'PostgreSQL',
    fresh: async () => ({ databaseUrl: await postgres.createDatabase(), dataDir: '' }),
    unreachable: async () => ({ databaseUrl: `postgres://zeroid:zeroid@127.0.0.1:${await freePort()}/zeroid`, dataDir: '' }),
    async refuseWrites({ databaseUrl }) {
      await dropDatabase(databaseUrl ?? '');
      return async () => undefined;
    },
  },
];

/** The database disappears, with every connection to it: as unreachable as it gets. */
async function dropDatabase(databaseUrl: string) {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

const identity = (n: number) => ({ commitment: String(1000 + n), idTag: `tag-${n}`, did: `did:key:z6Mk${n}` });
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe.each(backends)('storage contract on $name', (backend) => {
  const open = async () => {
    const options = await backend.fresh();
    return { options, storage: await openStorage(options) };
  };

  it('assigns leaf indexes 0, 1, 2… and finds identities by commitment and DID', async () => {
    const { storage } = await open();
    const before = Date.now();
    expect(await storage.identities.register(identity(0))).toEqual({ inserted: true, leafIndex: 0 });
    expect(await storage.identities.register(identity(1))).toEqual({ inserted: true, leafIndex: 1 });
    expect(await storage.identities.register(identity(2))).toEqual({ inserted: true, leafIndex: 2 });
    const after = Date.now();
    expect(await storage.identities.findByCommitment('1001')).toMatchObject({ leafIndex: 1, ...identity(1) });
    const byDid = await storage.identities.findByDid('did:key:z6Mk2');
    expect(byDid).toMatchObject({ leafIndex: 2, ...identity(2) });
    expect(byDid?.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(byDid?.createdAt.getTime()).toBeLessThanOrEqual(after);
    expect(await storage.identities.findByCommitment('999')).toBeUndefined();
    expect(await storage.identities.findByDid('did:key:z6Mk999')).toBeUndefined();
    expect(await storage.identities.count()).toBe(3);
    await storage.close();
  });

  it('refuses a second registration of the same commitment, ID tag or DID, and changes nothing', async () => {
    const { storage } = await open();
    await storage.identities.register(identity(0));
    const original = await storage.identities.findByCommitment('1000');
    expect(await storage.identities.register({ ...identity(1), commitment: '1000' })).toEqual({ inserted: false });
    expect(await storage.identities.register({ ...identity(1), idTag: 'tag-0' })).toEqual({ inserted: false });
    expect(await storage.identities.register({ ...identity(1), did: 'did:key:z6Mk0' })).toEqual({ inserted: false });
    expect(await storage.identities.count()).toBe(1);
    expect(await storage.identities.findByCommitment('1000')).toEqual(original);
    expect(await storage.identities.findByCommitment('1001')).toBeUndefined();
    expect(await storage.identities.findByDid('did:key:z6Mk1')).toBeUndefined();
    expect(await storage.identities.register(identity(1))).toEqual({ inserted: true, leafIndex: 1 });
    await storage.close();
  });

  it('tells whether an identity holds a commitment or an ID tag, and forgets an erased one (decision 056)', async () => {
    const { storage } = await open();
    await storage.identities.register(identity(0));
    const holds = (commitment: string, idTag: string) => storage.identities.holdsCommitmentOrTag({ commitment, idTag });
    expect(await holds('1000', 'tag-9')).toBe(true);
    expect(await holds('1009', 'tag-0')).toBe(true);
    expect(await holds('1000', 'tag-0')).toBe(true);
    expect(await holds('1009', 'tag-9')).toBe(false);
    // A DID alone is not asked about, and an erased row holds nothing.
    expect(await holds('did:key:z6Mk0', 'did:key:z6Mk0')).toBe(false);
    expect(await storage.identities.erase([identity(0)])).toBe(true);
    expect(await holds('1000', 'tag-0')).toBe(false);
    await storage.close();
  });

  it('erases every pair in one transaction, by commitment and ID tag whatever the stored DID: all or nothing, or any (decision 073)', async () => {
    const { storage } = await open();
    for (const n of [0, 1, 2]) await storage.identities.register(n === 2 ? { ...identity(2), did: 'did:key:z6MkOther' } : identity(n));
    // `every`: one pair no row holds, and nothing is erased.
    expect(await storage.identities.erase([identity(0), { commitment: '1009', idTag: 'tag-9' }])).toBe(false);
    expect(await storage.identities.erasuresAfter(0)).toEqual([]);
    expect(await storage.identities.erase([identity(0), { commitment: '1009', idTag: 'tag-9' }], 'any')).toBe(true);
    expect(await storage.identities.erasuresAfter(0)).toEqual([{ seq: 1, leafIndex: 0 }]);
    // Row 2 was stored under another DID: its commitment and tag erase it, and its stored DID is the one tombstoned.
    expect(await storage.identities.erase([identity(1), identity(2)])).toBe(true);
    expect(await storage.identities.commitmentsFrom(0)).toEqual(['0', '0', '0']);
    expect(await storage.identities.isDeactivated('did:key:z6MkOther')).toBe(true);
    expect(await storage.identities.erase([identity(1)], 'any')).toBe(false);
    await storage.close();
  });

  it('moves a v2 row to v3 in one transaction: keeps an own v3 row, evicts or refuses for the others (decision 073)', async () => {
    const { storage } = await open();
    // 0: the v2 identity; 1: a squat of its v3 ID tag; 3: another v2 identity, whose own v3 row (4) exists.
    for (const row of [identity(0), { ...identity(1), idTag: 'tag-5' }, identity(3), identity(4)]) await storage.identities.register(row);
    const move = (from: number, to: number, evict: boolean, queries?: string[]) =>
      storage.identities.moveFromV2({ from: identity(from), to: { ...identity(to), ...(queries ? { queries } : {}) }, evict });
    expect(await move(9, 5, true)).toEqual({ moved: false, reason: 'no-v2-identity' });
    expect(await move(0, 5, false, ['p1', 'p2'])).toEqual({ moved: false, reason: 'would-evict' });
    expect(await storage.identities.erasuresAfter(0)).toEqual([]);
    expect(await move(0, 5, false, ['p1', 'p3'])).toEqual({ moved: false, reason: 'reused-query' });
    expect(await move(0, 5, true)).toEqual({ moved: true, leafIndex: 4, replacedDid: 'did:key:z6Mk0', evicted: 1 });
    expect(await storage.identities.commitmentsFrom(0)).toEqual(['0', '0', '1003', '1004', '1005']);
    expect(await storage.identities.isDeactivated('did:key:z6Mk0')).toBe(true);
    expect(await storage.identities.isDeactivated('did:key:z6Mk1')).toBe(true);
    // The v3 row holding all three values is the person's own: kept, nothing evicted, the v2 row gone.
    expect(await move(3, 4, false)).toEqual({ moved: true, leafIndex: 3, replacedDid: 'did:key:z6Mk3', evicted: 0 });
    expect(await storage.identities.commitmentsFrom(0)).toEqual(['0', '0', '0', '1004', '1005']);
    expect(await move(3, 4, false)).toEqual({ moved: false, reason: 'no-v2-identity' });
    await storage.close();
  });

  it('sees a person under v2 or v3 in one read while their moves commit, never under neither (decision 073)', async () => {
    const { storage } = await open();
    const people = range(0, 30);
    for (const n of people) await storage.identities.register(identity(n));
    // Person n's v2 row is identity(n); their v3 row is identity(100 + n).
    const moves = people.map((n) => storage.identities.moveFromV2({ from: identity(n), to: identity(100 + n), evict: true }));
    const reads = people.flatMap((n) =>
      range(0, 4).map(() => storage.identities.holdsAnyCommitment([identity(100 + n).commitment, identity(n).commitment])),
    );
    const [moved, seen] = await Promise.all([Promise.all(moves), Promise.all(reads)]);
    expect(moved.every((m) => m.moved)).toBe(true);
    expect(seen.filter((found) => !found)).toEqual([]);
    expect(await storage.identities.holdsAnyCommitment([])).toBe(false);
    expect(await storage.identities.holdsAnyCommitment(['no-such-commitment'])).toBe(false);
    await storage.close();
  });

  it('inserts exactly one of 50 concurrent identical registrations', async () => {
    const { storage } = await open();
    const outcomes = await Promise.all(range(0, 50).map(() => storage.identities.register(identity(7))));
    expect(outcomes.filter((o) => o.inserted)).toEqual([{ inserted: true, leafIndex: 0 }]);
    expect(await storage.identities.count()).toBe(1);
    await storage.close();
  });

  it('records a v3 registration’s blinded points once: a reused one writes nothing, even among concurrent registrations (decision 056)', async () => {
    const { storage } = await open();
    const points = (n: number) => [`bio-point-${n}`, `id-point-${n}`];
    expect(await storage.identities.register({ ...identity(0), queries: points(0) })).toEqual({ inserted: true, leafIndex: 0 });
    // Either point again, with new values: refused, and its fresh point is not kept.
    expect(await storage.identities.register({ ...identity(1), queries: ['bio-point-0', 'id-point-1'] })).toEqual({
      inserted: false,
      reusedQuery: true,
    });
    expect(await storage.identities.register({ ...identity(1), queries: ['bio-point-1', 'id-point-0'] })).toEqual({
      inserted: false,
      reusedQuery: true,
    });
    expect(await storage.identities.register({ ...identity(1), queries: ['same-point', 'same-point'] })).toEqual({
      inserted: false,
      reusedQuery: true,
    });
    expect(await storage.identities.register({ ...identity(1), queries: points(1) })).toEqual({ inserted: true, leafIndex: 1 });
    // A taken identity with fresh points: "already registered", and those points are spent all the same.
    expect(await storage.identities.register({ ...identity(1), queries: points(2) })).toEqual({ inserted: false });
    expect(await storage.identities.register({ ...identity(2), queries: points(2) })).toEqual({ inserted: false, reusedQuery: true });
    // 20 at once, all with one point: one is new, the others write nothing.
    const outcomes = await Promise.all(
      range(3, 20).map((n) => storage.identities.register({ ...identity(n), queries: ['contested', `id-point-${n}`] })),
    );
    expect(outcomes.filter((o) => o.inserted)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.inserted && o.reusedQuery)).toHaveLength(19);
    expect(await storage.identities.count()).toBe(3);
    await storage.close();
  });

  it('writes a noisy identity’s lockers with it, or nothing when one is stored or the identity is taken, even among concurrent registrations (decision 084)', async () => {
    const { storage } = await open();
    // 20,000 lockers, as a registration has: more keys than one statement may bind.
    const lockers = (n: number) =>
      Array.from({ length: 20_000 }, (_, j) => ({
        key: Uint8Array.of(j >> 8, j & 0xff, n, n, n, n, n, n, n, 7),
        seal: Uint8Array.from({ length: 16 }, (_, i) => (n + i) & 0xff),
      }));
    expect(await storage.identities.register({ ...identity(0), lockers: lockers(0) })).toEqual({ inserted: true, leafIndex: 0 });
    const keys = lockers(0).map((l) => l.key);
    expect(await storage.noisyLockers.find(keys)).toHaveLength(20_000);
    expect((await storage.noisyLockers.find([keys[19_999]!]))[0]).toEqual(lockers(0)[19_999]);
    // One stored locker among fresh ones (a second reading of the same eye): refused, nothing written.
    const again = [...lockers(1).slice(0, 19_999), lockers(0)[19_999]!];
    expect(await storage.identities.register({ ...identity(1), lockers: again })).toEqual({ inserted: false });
    expect(await storage.noisyLockers.find(lockers(1).map((l) => l.key))).toHaveLength(0);
    expect(await storage.identities.findByCommitment('1001')).toBeUndefined();
    // A taken identity with fresh lockers: "already registered", and its lockers are not kept.
    expect(await storage.identities.register({ ...identity(0), lockers: lockers(2) })).toEqual({ inserted: false });
    expect(await storage.noisyLockers.find(lockers(2).map((l) => l.key))).toHaveLength(0);
    // Five registrations of one eye at once, under five IDs: exactly one is written.
    const contested = lockers(3);
    const outcomes = await Promise.all(range(3, 5).map((n) => storage.identities.register({ ...identity(n), lockers: contested })));
    expect(outcomes.filter((o) => o.inserted)).toHaveLength(1);
    expect(await storage.identities.count()).toBe(2);
    await storage.close();
  });

  it('keeps leaf indexes gapless and unique under 100 concurrent distinct registrations, in commitment order', async () => {
    const { storage } = await open();
    const outcomes = await Promise.all(range(0, 100).map((n) => storage.identities.register(identity(n))));
    const indexes = outcomes.map((o) => (o.inserted ? o.leafIndex : -1));
    expect([...indexes].sort((a, b) => a - b)).toEqual(range(0, 100));
    const commitments = await storage.identities.commitmentsFrom(0);
    // Each commitment sits at the leaf index its registration was given.
    expect(commitments).toEqual(range(0, 100).map((leaf) => identity(indexes.indexOf(leaf)).commitment));
    expect(await storage.identities.commitmentsFrom(98)).toEqual(commitments.slice(98));
    expect(await storage.identities.commitmentsFrom(10, 3)).toEqual(commitments.slice(10, 13));
    expect(await storage.identities.commitmentsFrom(100)).toEqual([]);
    await storage.close();
  });

  it('starts in four processes at once on a new database: one schema, leaf indexes exactly 0..99', async () => {
    const options = await backend.fresh();
    const outcomes = await registerInProcessesAtOnce(
      options,
      range(0, 4).map((p) => range(p * 25, 25).map(identity)),
    );
    const indexes = outcomes.flat().map((o) => (o.inserted ? o.leafIndex : -1));
    expect(indexes.sort((a, b) => a - b)).toEqual(range(0, 100));
    const storage = await openStorage(options);
    expect(await storage.identities.count()).toBe(100);
    expect(new Set(await storage.identities.commitmentsFrom(0))).toEqual(new Set(range(0, 100).map((n) => identity(n).commitment)));
    await storage.close();
  });

  it('imports a batch at the next leaf indexes, all or nothing', async () => {
    const { storage } = await open();
    await storage.identities.register(identity(0));
    await storage.identities.importBatch(range(1, 2500).map(identity));
    expect(await storage.identities.count()).toBe(2501);
    expect((await storage.identities.findByCommitment('3500'))?.leafIndex).toBe(2500);
    await expect(storage.identities.importBatch([identity(9000), identity(5)])).rejects.toThrow();
    expect(await storage.identities.count()).toBe(2501);
    expect(await storage.identities.register(identity(9000))).toEqual({ inserted: true, leafIndex: 2501 });
    await storage.close();
  });

  it('counts leaves by the last leaf index, and keeps paged tree checkpoints: whole pages, only the newest two', async () => {
    const { storage } = await open();
    expect(await storage.identities.leafCount()).toBe(0);
    expect(await storage.identities.changeMarks()).toEqual({ leafCount: 0, lastErasure: 0 });
    await storage.identities.importBatch(range(0, 3).map(identity));
    expect(await storage.identities.leafCount()).toBe(3);
    const page = (size: number, n: number) => Buffer.alloc(1000 + n, size * 16 + n);
    for (const size of [10, 20, 30]) {
      const root = `root ${size}`;
      await storage.checkpoints.savePages(size, root, 0, [page(size, 0), page(size, 1)]);
      await storage.checkpoints.savePages(size, root, 2, [page(size, 2)]);
      await storage.checkpoints.savePages(size, root, 1, [page(size, 9)]); // already there: kept as it was
      expect(await storage.checkpoints.save({ size, root, nodes: 'pages:v1' })).toBe(true);
    }
    expect(await storage.checkpoints.latest(25)).toEqual({ size: 20, root: 'root 20', nodes: 'pages:v1' });
    const read = await storage.checkpoints.pages(30, 'root 30', 1, 5);
    expect(read.map((bytes) => Buffer.from(bytes))).toEqual([page(30, 1), page(30, 2)]);
    // Another tree of the same size (an erasure changes the root, not the size) never shares its pages.
    expect(await storage.checkpoints.pages(30, 'another root', 0, 3)).toEqual([]);
    expect(await storage.checkpoints.pages(10, 'root 10', 0, 3)).toEqual([]);
    await storage.close();
  });

  it('keeps a root history: current, recently superseded, expired, unknown and 0', async () => {
    const { storage } = await open();
    expect(await storage.roots.latest()).toBeUndefined();
    await storage.roots.record(1, '111');
    await storage.roots.record(1, '111');
    await storage.roots.record(2, '222');
    const now = new Date();
    const later = new Date(now.getTime() + 120_000);
    expect(await storage.roots.latest()).toEqual({ size: 2, root: '222' });
    expect(await storage.roots.rootOf(1)).toBe('111');
    expect(await storage.roots.rootOf(3)).toBeUndefined();
    expect(await storage.roots.isAccepted('222', 60_000, now)).toBe(true);
    expect(await storage.roots.isAccepted('111', 60_000, now)).toBe(true);
    expect(await storage.roots.isAccepted('111', 60_000, later)).toBe(false);
    expect(await storage.roots.isAccepted('222', 60_000, later)).toBe(true);
    expect(await storage.roots.isAccepted('333', 60_000, now)).toBe(false);
    // The size a root was recorded for gives the depth of a proof against it (decision 015).
    expect(await storage.roots.standing('111', 60_000, now)).toEqual({ size: 1, accepted: true });
    expect(await storage.roots.standing('111', 60_000, later)).toEqual({ size: 1, accepted: false });
    expect(await storage.roots.standing('222', 60_000, later)).toEqual({ size: 2, accepted: true });
    expect(await storage.roots.standing('333', 60_000, now)).toBeUndefined();
    await storage.roots.record(0, '0');
    expect(await storage.roots.isAccepted('0', 60_000, now)).toBe(false);
    expect(await storage.roots.standing('0', 60_000, now)).toBeUndefined();
    await storage.close();
  });

  it('erases one identity in one transaction: values freed, leaf logged, DID tombstoned, checkpoints and its one-leaf root gone (decision 022)', async () => {
    const { storage } = await open();
    await storage.identities.register(identity(0));
    await storage.roots.record(1, '1000', 1_000);
    for (const n of [1, 2]) await storage.identities.register(identity(n));
    await storage.roots.record(3, 'r3', 2_000);
    for (const size of [1, 3]) {
      await storage.checkpoints.savePages(size, `r${size}`, 0, [Buffer.from(`pages of r${size}`)]);
      await storage.checkpoints.save({ size, root: `r${size}`, nodes: 'pages:v1' });
    }

    expect(await storage.identities.erase([{ ...identity(1), idTag: identity(2).idTag }])).toBe(false);
    expect(await storage.identities.erasuresAfter(0)).toEqual([]);
    // What a tree's catch-up checks before it reads (decision 064): the leaves and the last erasure.
    expect(await storage.identities.changeMarks()).toEqual({ leafCount: 3, lastErasure: 0 });
    expect(await storage.identities.erase([identity(1)])).toBe(true);
    expect(await storage.identities.changeMarks()).toEqual({ leafCount: 3, lastErasure: 1 });
    expect(await storage.identities.erase([identity(1)])).toBe(false);
    expect(await storage.identities.findByCommitment('1001')).toBeUndefined();
    expect(await storage.identities.findByDid('did:key:z6Mk1')).toBeUndefined();
    expect(await storage.identities.commitmentsFrom(0)).toEqual(['1000', '0', '1002']);
    expect(await storage.identities.erasuresAfter(0)).toEqual([{ seq: 1, leafIndex: 1 }]);
    expect(await storage.identities.isDeactivated('did:key:z6Mk1')).toBe(true);
    expect(await storage.identities.isDeactivated('did:key:z6Mk2')).toBe(false);
    // Checkpoints of more than one leaf held leaf 1; a save by a tree that has not seen the erasure is refused.
    expect(await storage.checkpoints.latest(3)).toMatchObject({ size: 1 });
    expect(await storage.checkpoints.pages(3, 'r3', 0, 1), 'the pages holding the erased leaf go with it').toEqual([]);
    expect(await storage.checkpoints.pages(1, 'r1', 0, 1)).toHaveLength(1);
    await storage.checkpoints.savePages(3, 'stale', 0, [Buffer.from('pages of a tree from before the erasure')]);
    expect(await storage.checkpoints.save({ size: 3, root: 'stale', nodes: 'pages:v1' }, 0)).toBe(false);
    expect(await storage.checkpoints.latest(3)).toMatchObject({ size: 1 });
    expect(await storage.checkpoints.pages(3, 'stale', 0, 1), 'a refused checkpoint leaves no pages').toEqual([]);
    expect(await storage.checkpoints.save({ size: 3, root: 'r3b', nodes: 'x' }, 1)).toBe(true);
    expect(await storage.checkpoints.latest(3)).toMatchObject({ size: 3, root: 'r3b' });

    expect(await storage.identities.erase([identity(0)])).toBe(true);
    expect(await storage.roots.rootOf(1), 'the root of one leaf is that leaf').toBeUndefined();
    expect(await storage.identities.erasuresAfter(1)).toEqual([{ seq: 2, leafIndex: 0 }]);

    // A size has a root per erasure; the first is superseded by the next at the same size.
    await storage.roots.record(3, 'r3b', 3_000);
    expect(await storage.roots.rootOf(3)).toBe('r3b');
    expect(await storage.roots.isRecorded(3, 'r3')).toBe(true);
    expect(await storage.roots.standing('r3', 60_000, new Date(3_500))).toEqual({ size: 3, accepted: true });
    expect(await storage.roots.standing('r3', 60_000, new Date(63_001))).toEqual({ size: 3, accepted: false });
    expect(await storage.roots.standing('r3b', 60_000, new Date(63_001))).toEqual({ size: 3, accepted: true });

    // The same person registers again: a new leaf, the DID active again.
    expect(await storage.identities.register(identity(1))).toEqual({ inserted: true, leafIndex: 3 });
    expect(await storage.identities.isDeactivated('did:key:z6Mk1')).toBe(false);
    await storage.close();
  });

  it('writes a credential leaf with its identity at dense positions, zeroes and logs it on erasure, and keeps its own roots (decision 088)', async () => {
    const { storage } = await open();
    expect(await storage.credentialLeaves.changeMarks()).toEqual({ leafCount: 0, lastErasure: 0 });
    await storage.identities.register(identity(0));
    expect(await storage.identities.register({ ...identity(1), credentialLeaf: '501' })).toEqual({ inserted: true, leafIndex: 1 });
    // A refused registration writes no leaf, and concurrent ones take positions 1, 2… without gaps.
    expect(await storage.identities.register({ ...identity(1), credentialLeaf: '999' })).toEqual({ inserted: false });
    const concurrent = await Promise.all(
      range(2, 10).map((n) => storage.identities.register({ ...identity(n), credentialLeaf: String(500 + n) })),
    );
    expect(concurrent.every((outcome) => outcome.inserted)).toBe(true);
    const leaves = await storage.credentialLeaves.leavesFrom(0);
    expect(leaves).toHaveLength(11);
    expect(leaves[0]).toBe('501');
    expect(new Set(leaves)).toEqual(new Set(['501', ...range(2, 10).map((n) => String(500 + n))]));
    expect(await storage.credentialLeaves.leavesFrom(9)).toEqual(leaves.slice(9));
    expect(await storage.credentialLeaves.changeMarks()).toEqual({ leafCount: 11, lastErasure: 0 });

    // Credential checkpoints holding the leaf go with it; the member tree's are not the credential tree's.
    await storage.credentialCheckpoints.savePages(11, 'c11', 0, [Buffer.from('pages of c11')]);
    expect(await storage.credentialCheckpoints.save({ size: 11, root: 'c11', nodes: 'pages:v1' })).toBe(true);
    expect(await storage.checkpoints.latest(100)).toBeUndefined();
    // A one-leaf credential tree's root is the leaf; the erasure takes it from the credential history only.
    await storage.credentialRoots.record(1, '501', 1_000);
    await storage.roots.record(1, '501', 1_000);
    expect(await storage.credentialRoots.latest()).toEqual({ size: 1, root: '501' });
    expect(await storage.identities.erase([identity(1)])).toBe(true);
    expect(await storage.credentialLeaves.leavesFrom(0, 1)).toEqual(['0']);
    expect(await storage.credentialLeaves.erasuresAfter(0)).toEqual([{ seq: 1, position: 0 }]);
    expect(await storage.credentialLeaves.changeMarks()).toEqual({ leafCount: 11, lastErasure: 1 });
    expect(await storage.credentialRoots.rootOf(1)).toBeUndefined();
    expect(await storage.credentialCheckpoints.latest(11)).toBeUndefined();
    expect(await storage.credentialCheckpoints.pages(11, 'c11', 0, 1)).toEqual([]);
    // A save by a tree that has not seen that erasure is refused; one that has, recorded.
    expect(await storage.credentialCheckpoints.save({ size: 11, root: 'stale', nodes: 'x' }, 0)).toBe(false);
    expect(await storage.credentialCheckpoints.save({ size: 11, root: 'c11b', nodes: 'x' }, 1)).toBe(true);
    // A plain identity's erasure logs nothing in the credential tree.
    expect(await storage.identities.erase([identity(0)])).toBe(true);
    expect(await storage.credentialLeaves.erasuresAfter(1)).toEqual([]);

    // The two histories are separate: a member root is not a credential root.
    await storage.roots.record(12, 'member-root');
    await storage.credentialRoots.record(11, 'credential-root');
    expect(await storage.credentialRoots.isAccepted('member-root', 60_000)).toBe(false);
    expect(await storage.roots.isAccepted('credential-root', 60_000)).toBe(false);
    expect(await storage.credentialRoots.standing('credential-root', 60_000)).toEqual({ size: 11, accepted: true });

    // The same person registers again with the same credential: a new position, the old one stays '0'.
    expect(await storage.identities.register({ ...identity(1), credentialLeaf: '501' })).toEqual({ inserted: true, leafIndex: 12 });
    expect(await storage.credentialLeaves.leavesFrom(11)).toEqual(['501']);

    // Found by their identities' leaf_index (a /credential-members bucket): in position order, a plain
    // identity (0) and an unknown index have none, an erased identity's row is there with its '0' leaf.
    const byIdentity = await storage.credentialLeaves.positionsOf([12, 0, 1, 5, 999]);
    expect(byIdentity).toEqual([{ position: 0, leafIndex: 1 }, expect.objectContaining({ leafIndex: 5 }), { position: 11, leafIndex: 12 }]);
    expect(leaves[byIdentity[1]!.position]).toBe('505');
    expect(await storage.credentialLeaves.positionsOf([])).toEqual([]);
    // More indexes than one statement takes on SQLite are read in slices, each once.
    expect(await storage.credentialLeaves.positionsOf([...range(0, 40_000), 12])).toHaveLength(12);
    await storage.close();
  });

  it('consumes a challenge exactly once, never after expiry, and purges expired ones', async () => {
    const { storage } = await open();
    const now = new Date();
    await storage.challenges.issue('1', new Date(now.getTime() + 60_000));
    await storage.challenges.issue('2', new Date(now.getTime() - 1));
    await storage.challenges.issue('3', new Date(now.getTime() + 60_000));
    // The non-consuming read (decision 055): issued, unused and unexpired, and reading uses nothing up.
    expect(await storage.challenges.isUsable('1', now)).toBe(true);
    expect(await storage.challenges.isUsable('1', now)).toBe(true);
    expect(await storage.challenges.isUsable('2', now)).toBe(false);
    expect(await storage.challenges.isUsable('404', now)).toBe(false);
    expect(await storage.challenges.isUsable('3', new Date(now.getTime() + 60_000))).toBe(false);
    const results = await Promise.all(range(0, 20).map(() => storage.challenges.consume('1', now)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await storage.challenges.consume('1', now)).toBe(false);
    expect(await storage.challenges.isUsable('1', now)).toBe(false);
    expect(await storage.challenges.consume('2', now)).toBe(false);
    expect(await storage.challenges.consume('404', now)).toBe(false);
    expect(await storage.challenges.consume('3', new Date(now.getTime() + 60_000))).toBe(false);
    expect(await storage.challenges.purgeExpired(now)).toBe(1);
    expect(await storage.challenges.consume('3', now)).toBe(true);
    expect(await storage.challenges.purgeExpired(new Date(now.getTime() + 120_000))).toBe(2);
    expect(await storage.challenges.purgeExpired(new Date(now.getTime() + 120_000))).toBe(0);
    // When a usable challenge was issued and expires (decision 085): a credential proof's day is held to them.
    const issuedAt = new Date(now.getTime() - 5_000);
    await storage.challenges.issue('4', new Date(now.getTime() + 60_000), issuedAt);
    expect(await storage.challenges.times('4', now)).toEqual({ issuedAt, expiresAt: new Date(now.getTime() + 60_000) });
    expect(await storage.challenges.times('2', new Date(now.getTime() + 1))).toBeUndefined();
    expect(await storage.challenges.times('404', now)).toBeUndefined();
    expect(await storage.challenges.consume('4', now)).toBe(true);
    expect(await storage.challenges.times('4', now)).toBeUndefined();
    await storage.close();
  });

  it('keeps a session with its secret hash, completes it once, and finds the completed among many in one call', async () => {
    const { storage } = await open();
    const now = new Date();
    const ids = range(0, 1200).map((i) => i.toString(16).padStart(32, '0'));
    for (const id of ids.slice(0, 3)) await storage.sessions.create(id, new Date(now.getTime() + 60_000), `hash-${id}`);
    await storage.sessions.create(ids[3]!, new Date(now.getTime() - 1), 'hash-expired');
    expect(await storage.sessions.find(ids[0]!, now)).toEqual({
      id: ids[0],
      status: 'pending',
      expiresAt: new Date(now.getTime() + 60_000),
      secretHash: `hash-${ids[0]}`,
    });
    const completions = await Promise.all(range(0, 10).map(() => storage.sessions.complete(ids[1]!, 'failure', now)));
    expect(completions.filter(Boolean)).toHaveLength(1);
    await storage.sessions.complete(ids[2]!, 'success', now);
    // 1,200 ids: more than one statement's worth, all answered in one call; pending and expired
    // sessions are not completed.
    const completed = await storage.sessions.findChanged(ids);
    expect(completed).toEqual(
      new Map([
        [ids[1]!, { status: 'failure' }],
        [ids[2]!, { status: 'success' }],
      ]),
    );
    // A phone opened a pending session's link (decision 047): marked once, in the row, for every process.
    expect(await storage.sessions.markOpened(ids[0]!, now)).toBe(true);
    expect(await storage.sessions.markOpened(ids[0]!, now)).toBe(false);
    expect(await storage.sessions.markOpened(ids[1]!, now)).toBe(false);
    expect(await storage.sessions.markOpened(ids[3]!, now)).toBe(false);
    expect((await storage.sessions.findChanged(ids)).get(ids[0]!)).toEqual({ status: 'pending', phoneOpened: true });
    expect(await storage.sessions.find(ids[0]!, now)).toMatchObject({ status: 'pending', phoneOpened: true });
    expect((await storage.sessions.find(ids[3]!, now))?.status).toBe('expired');
    // A sign-in's session (decision 029) keeps its authorization request, and the winner's pseudonym.
    const signIn = 'f'.repeat(32);
    await storage.sessions.create(signIn, new Date(now.getTime() + 60_000), 'hash-sign-in', 'interaction-1');
    const won = await Promise.all(
      ['sub-a', 'sub-b'].map((subject) =>
        storage.sessions.complete(signIn, 'success', now, {
          subject,
          confirmationHash: `confirm-${subject}`,
          credentialIssuer: `issuer-of-${subject}`,
        }),
      ),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = won[0] ? 'sub-a' : 'sub-b';
    expect(await storage.sessions.find(signIn, now)).toMatchObject({ status: 'success', signIn: 'interaction-1', subject: winner });
    // The issuer a phone's credential proof named (decision 088) is the winner's, and goes with the pseudonym.
    expect(await storage.sessions.find(signIn, now)).toMatchObject({ credentialIssuer: `issuer-of-${winner}` });

    // The screen's person types the winner's code (decision 035): of ten concurrent confirmations one
    // is accepted, and the pseudonym is cleared with it; the loser's code confirms nothing.
    const rule = { maxAttempts: 5, confirmableUntil: 60_000 };
    expect(await storage.sessions.confirm(signIn, `confirm-${winner === 'sub-a' ? 'sub-b' : 'sub-a'}`, rule, now)).toEqual({
      confirmed: false,
      attemptsLeft: 4,
    });
    const confirmations = await Promise.all(range(0, 10).map(() => storage.sessions.confirm(signIn, `confirm-${winner}`, rule, now)));
    expect(confirmations.filter((c) => c.confirmed)).toHaveLength(1);
    expect(await storage.sessions.find(signIn, now)).not.toHaveProperty('subject');
    expect(await storage.sessions.find(signIn, now)).not.toHaveProperty('credentialIssuer');
    expect(await storage.sessions.find(signIn, now)).toMatchObject({ status: 'success', confirmed: true });

    // Five wrong codes fail a session and drop its pseudonym; the right code then confirms nothing.
    const guessed = 'e'.repeat(32);
    await storage.sessions.create(guessed, new Date(now.getTime() + 60_000), 'hash-guessed', 'interaction-2');
    await storage.sessions.complete(guessed, 'success', now, { subject: 'sub-c', confirmationHash: 'right', credentialIssuer: 'issuer-c' });
    const wrong = [];
    for (const i of range(0, 6)) wrong.push((await storage.sessions.confirm(guessed, `wrong-${i}`, rule, now)).attemptsLeft);
    expect(wrong).toEqual([4, 3, 2, 1, 0, 0]);
    expect(await storage.sessions.confirm(guessed, 'right', rule, now)).toEqual({ confirmed: false, attemptsLeft: 0 });
    expect(await storage.sessions.find(guessed, now)).toMatchObject({ status: 'failure' });
    expect(await storage.sessions.find(guessed, now)).not.toHaveProperty('subject');
    expect(await storage.sessions.find(guessed, now)).not.toHaveProperty('credentialIssuer');

    // A pseudonym never outlives its session: cleared at expiry (plus the grace), the row an hour later.
    const late = 'd'.repeat(32);
    await storage.sessions.create(late, new Date(now.getTime() + 60_000), 'hash-late', 'interaction-3');
    await storage.sessions.complete(late, 'success', now, { subject: 'sub-d', confirmationHash: 'late', credentialIssuer: 'issuer-d' });
    await storage.sessions.purgeExpired(new Date(now.getTime() + 60_000), { subjectsAfterMs: 0 });
    expect(await storage.sessions.find(late, now)).not.toHaveProperty('subject');
    expect(await storage.sessions.find(late, now)).not.toHaveProperty('credentialIssuer');
    expect(await storage.sessions.confirm(late, 'late', rule, new Date(now.getTime() + 2 * 60_000))).toEqual({
      confirmed: false,
      attemptsLeft: 0,
    });
    await storage.close();
  });

  it('checks at most five confirmation codes however many arrive at once, and then refuses the right one (decision 047)', async () => {
    const { storage } = await open();
    const now = new Date();
    const rule = { maxAttempts: 5, confirmableUntil: 60_000 };
    const session = (n: number) => n.toString(16).padStart(32, '0');
    for (const n of [1, 2]) {
      await storage.sessions.create(session(n), new Date(now.getTime() + 60_000), 'hash', `interaction-${n}`);
      await storage.sessions.complete(session(n), 'success', now, { subject: `sub-${n}`, confirmationHash: 'right' });
    }
    // Forty wrong codes at once: five are checked (4, 3, 2, 1, 0 tries left), the other 35 find the
    // count at five and are refused unchecked; the right code, typed next, is refused too.
    const guesses = await Promise.all(range(0, 40).map((i) => storage.sessions.confirm(session(1), `wrong-${i}`, rule, now)));
    expect(guesses.filter((g) => g.confirmed)).toEqual([]);
    expect(guesses.map((g) => g.attemptsLeft).sort()).toEqual([...Array<number>(36).fill(0), 1, 2, 3, 4]);
    expect(await storage.sessions.confirm(session(1), 'right', rule, now)).toEqual({ confirmed: false, attemptsLeft: 0 });
    expect(await storage.sessions.find(session(1), now)).toMatchObject({ status: 'failure' });
    expect(await storage.sessions.find(session(1), now)).not.toHaveProperty('subject');
    // The right code sent last of forty at once (the relay's race): the database takes them in turn,
    // five are checked, and the right one is refused unchecked. Checking in one statement and
    // counting in another let it through: every check ran before any count.
    const raced = await Promise.all(
      range(0, 40).map((i) => storage.sessions.confirm(session(2), i === 39 ? 'right' : `wrong-${i}`, rule, now)),
    );
    expect(raced[39]).toEqual({ confirmed: false, attemptsLeft: 0 });
    expect(raced.filter((g) => g.attemptsLeft > 0 || g.confirmed)).toHaveLength(4);
    expect(await storage.sessions.find(session(2), now)).toMatchObject({ status: 'failure' });
    await storage.close();
  });

  it("dates keys by the database's clock, seals a clear key for exactly one of many callers, and deletes it when its retirement is due (decision 049)", async () => {
    const { storage } = await open();
    const before = Date.now();
    const clock = await storage.oidc.clock();
    expect(clock).toBeGreaterThanOrEqual(before - 2_000);
    expect(clock).toBeLessThanOrEqual(Date.now() + 2_000);
    await storage.oidc.addKey('signing', 'clear', 'clear-bytes', clock);
    const sealed = await Promise.all(
      range(0, 10).map(() => storage.oidc.replaceKeySecret('clear', 'clear-bytes', 'v1.sealed', clock + 5_000)),
    );
    expect(sealed.filter(Boolean)).toHaveLength(1);
    expect(await storage.oidc.keys('signing')).toEqual([{ kid: 'clear', secret: 'v1.sealed', createdAt: clock, retireAt: clock + 5_000 }]);
    expect(await storage.oidc.removeRetiredKeys(clock + 4_999)).toBe(0);
    expect(await storage.oidc.removeRetiredKeys(clock + 5_000)).toBe(1);
    expect(await storage.oidc.keys('signing')).toEqual([]);
    await storage.close();
  });

  it("keeps a removed OpenID client's id from another site, and forgets its records and a person's (decisions 036 and 038)", async () => {
    const { storage } = await open();
    const record = (id: string, accountId: string, clientId: string) =>
      storage.oidc.upsert('AccessToken', id, '{}', Date.now() + 60_000, { accountId, clientId });
    expect(await storage.oidc.addClient('site', '{"client_id":"site"}')).toBe(true);
    await record('t1', 'sub-1', 'site');
    await record('t2', 'sub-2', 'other');
    await record('t3', 'sub-1', 'other');
    expect(await storage.oidc.removeClient('site', 1_000)).toBe(true);
    expect(await storage.oidc.removeClient('site')).toBe(false);
    expect(await storage.oidc.find('AccessToken', 't1')).toBeUndefined();
    expect(await storage.oidc.findClient('site')).toBeUndefined();
    expect(await storage.oidc.listClients()).toEqual([]);
    expect(await storage.oidc.clientRemovedAt('site')).toBe(1_000);
    // The id is not given to another client by accident, only on purpose.
    expect(await storage.oidc.addClient('site', '{"client_id":"site","v":2}')).toBe(false);
    expect(await storage.oidc.addClient('site', '{"client_id":"site","v":2}', undefined, { reuseRemoved: true })).toBe(true);
    expect(await storage.oidc.findClient('site')).toBe('{"client_id":"site","v":2}');
    expect(await storage.oidc.clientRemovedAt('site')).toBeUndefined();
    // An erasure's pseudonyms, and a logout's one pseudonym at one site.
    expect(await storage.oidc.forgetAccountAtClient('sub-2', 'site')).toBe(0);
    expect(await storage.oidc.forgetAccounts(['sub-1', ...range(0, 600).map((i) => `other-${i}`)])).toBe(1);
    expect(await storage.oidc.forgetAccountAtClient('sub-2', 'other')).toBe(1);
    await storage.close();
  });

  it('counts attempts in fixed windows without losing a concurrent increment, and reserves throttled attempts', async () => {
    const { storage } = await open();
    const counts = await Promise.all(range(0, 40).map(() => storage.attempts.countInWindow('budget', 60_000, 60_001)));
    expect([...counts].sort((a, b) => a - b)).toEqual(range(1, 40));
    expect(await storage.attempts.countInWindow('budget', 120_000, 120_001)).toBe(1);

    await storage.attempts.uncountInWindow('budget', 120_000);
    expect(await storage.attempts.countInWindow('budget', 120_000, 120_001)).toBe(1);

    const rule = { allowance: 2, delayMs: 1_000, maxDelayMs: 3_000, forgetAfterMs: 10_000 };
    expect(await storage.attempts.reserve('client', 1, 1_000, rule)).toBe(1);
    expect(await storage.attempts.reserve('client', 1, 2_000, rule)).toBe(2);
    expect(await storage.attempts.reserve('client', 1, 2_999, rule), 'waits 1 s after the allowance').toBeUndefined();
    expect(await storage.attempts.reserve('client', 1, 3_000, rule)).toBe(3);
    expect(await storage.attempts.reserve('client', 1, 4_999, rule), 'then 2 s').toBeUndefined();
    expect(await storage.attempts.reserve('client', 1, 5_000, rule)).toBe(4);
    expect(await storage.attempts.reserve('client', 1, 7_999, rule), 'then at most 3 s').toBeUndefined();
    expect(await storage.attempts.reserve('client', 2, 8_000, rule)).toBe(6);
    await storage.attempts.release('client', 5);
    expect(await storage.attempts.attempts('client', 8_000, 10_000)).toEqual({ count: 1, lastAt: 8_000 });
    expect(await storage.attempts.attempts('client', 18_000, 10_000), 'forgotten').toBeUndefined();
    expect(await storage.attempts.reserve('client', 1, 18_000, rule), 'counts again from 1').toBe(1);
    expect(await storage.attempts.attempts('nobody', 12_000, 10_000)).toBeUndefined();

    expect(await storage.attempts.purgeIdle(100_000)).toBe(1);
    expect(await storage.attempts.attempts('client', 18_000, 10_000)).toBeUndefined();
    expect(await storage.attempts.countInWindow('budget', 120_000, 120_002)).toBe(2);
    await storage.close();
  });

  it('reserves no more than the allowance under 40 concurrent reservations', async () => {
    const { storage } = await open();
    const rule = { allowance: 5, delayMs: 30_000, maxDelayMs: 900_000, forgetAfterMs: 86_400_000 };
    const reserved = await Promise.all(range(0, 40).map(() => storage.attempts.reserve('fresh client', 1, 1_000, rule)));
    expect(reserved.filter((count) => count !== undefined).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await storage.attempts.attempts('fresh client', 1_000, 86_400_000)).toEqual({ count: 5, lastAt: 1_000 });
    await storage.close();
  });

  it('takes no more tokens than the bucket holds under 40 concurrent takes, and a refusal changes nothing', async () => {
    const { storage } = await open();
    const bucket = { capacity: 20, refillMs: 900_000 };
    const takes = await Promise.all(range(0, 40).map(() => storage.attempts.takeTokens('fresh bucket', 1, 1_000, bucket)));
    expect(takes.filter((take) => take.taken)).toHaveLength(20);
    // Empty: the next token is one refill away, and asking again and again does not move it.
    for (let i = 0; i < 5; i++) {
      expect(await storage.attempts.takeTokens('fresh bucket', 1, 1_000, bucket)).toEqual({ taken: false, waitMs: 900_000 });
    }
    expect(await storage.attempts.takeTokens('fresh bucket', 3, 1_000, bucket)).toEqual({ taken: false, waitMs: 2_700_000 });
    // Served exactly when told: not a millisecond before.
    expect((await storage.attempts.takeTokens('fresh bucket', 1, 900_999, bucket)).taken).toBe(false);
    expect((await storage.attempts.takeTokens('fresh bucket', 1, 901_000, bucket)).taken).toBe(true);
    // Given back: usable at once, and never above a full bucket.
    await storage.attempts.giveBackTokens('fresh bucket', 2, bucket);
    expect((await storage.attempts.takeTokens('fresh bucket', 2, 901_000, bucket)).taken).toBe(true);
    const later = 901_000 + 100 * 900_000;
    await storage.attempts.giveBackTokens('fresh bucket', 50, bucket);
    const full = await Promise.all(range(0, 30).map(() => storage.attempts.takeTokens('fresh bucket', 1, later, bucket)));
    expect(full.filter((take) => take.taken)).toHaveLength(20);
    await storage.close();
  });

  it('draws a reservation once per unit, only while it lasts, and gives back what it still held', async () => {
    const { storage } = await open();
    await storage.attempts.openReservation('reservation:a', 4, 10_000);
    const draws = await Promise.all(range(0, 10).map(() => storage.attempts.drawReservation('reservation:a', 1, 1_000)));
    expect(draws.filter(Boolean)).toHaveLength(4);
    expect(await storage.attempts.drawReservation('reservation:a', 0, 1_000)).toBe(true);
    expect(await storage.attempts.drawReservation('reservation:unknown', 0, 1_000)).toBe(false);
    await storage.attempts.openReservation('reservation:b', 4, 10_000);
    expect(await storage.attempts.drawReservation('reservation:b', 1, 1_000)).toBe(true);
    expect(await storage.attempts.drawReservation('reservation:b', 1, 10_000)).toBe(false);
    expect(await storage.attempts.closeReservation('reservation:b', 2_000)).toBe(3);
    expect(await storage.attempts.closeReservation('reservation:b', 2_000)).toBe(0);
    await storage.attempts.openReservation('reservation:c', 2, 10_000);
    expect(await storage.attempts.closeReservation('reservation:c', 10_000)).toBe(0);
    await storage.close();
  });

  it('records the first key fingerprint of each purpose, once, under 20 concurrent writers with different ones', async () => {
    const { options, storage } = await open();
    const recorded = await Promise.all(range(0, 20).map((n) => storage.keyFingerprints.adopt('oprf', `fingerprint-${n}`)));
    expect(new Set(recorded).size).toBe(1);
    expect(recorded[0]).toMatch(/^fingerprint-\d+$/);
    expect(await storage.keyFingerprints.adopt('oprf', 'another')).toBe(recorded[0]);
    expect(await storage.keyFingerprints.recorded('oprf')).toBe(recorded[0]);
    expect(await storage.keyFingerprints.recorded('nothing recorded')).toBeUndefined();
    expect(await storage.keyFingerprints.adopt('oprf-group', 'group')).toBe('group');
    await storage.close();

    const reopened = await openStorage(options);
    expect(await reopened.keyFingerprints.adopt('oprf', 'after a restart')).toBe(recorded[0]);
    await reopened.close();
  });

  it('keeps everything across close and reopen', async () => {
    const { options, storage } = await open();
    await storage.identities.register(identity(0));
    await storage.identities.register(identity(1));
    await storage.roots.record(2, '222');
    await storage.challenges.issue('1', new Date(Date.now() + 60_000));
    await storage.close();
    const again = await openStorage(options);
    expect(again.dialect).toBe(backend.name === 'SQLite' ? 'sqlite' : 'postgres');
    expect(await again.identities.commitmentsFrom(0)).toEqual(['1000', '1001']);
    expect(await again.identities.findByDid('did:key:z6Mk1')).toMatchObject({ leafIndex: 1, ...identity(1) });
    expect(await again.roots.latest()).toEqual({ size: 2, root: '222' });
    expect(await again.challenges.consume('1')).toBe(true);
    expect(await again.identities.register(identity(2))).toEqual({ inserted: true, leafIndex: 2 });
    await again.ping();
    await again.close();
  });

  it('fails to open, rather than half-open, when the database cannot be reached', async () => {
    await expect(openStorage(await backend.unreachable())).rejects.toThrow(/ENOTDIR|ECONNREFUSED/);
  });

  it('reports a database that refuses writes as an error, never as "already registered" or "already used"', async () => {
    const { options, storage } = await open();
    await storage.challenges.issue('1', new Date(Date.now() + 60_000));
    const restore = await backend.refuseWrites(options);
    try {
      await expect(storage.identities.register(identity(0))).rejects.toThrow();
      await expect(storage.challenges.consume('1')).rejects.toThrow();
    } finally {
      await restore();
      await storage.close();
    }
  });
});

describe('storage on PostgreSQL only', () => {
  it('answers the readiness probe only while the database is there', async () => {
    const databaseUrl = await postgres.createDatabase();
    const storage = await openStorage({ databaseUrl, dataDir: '' });
    await storage.ping();
    await dropDatabase(databaseUrl);
    await expect(storage.ping()).rejects.toThrow();
    await storage.close();
  });

  it('runs a registration again when PostgreSQL picks it as a deadlock victim', async () => {
    const databaseUrl = await postgres.createDatabase();
    const storage = await openStorage({ databaseUrl, dataDir: '' });
    // A careless writer inserts the same commitment first and only then asks for the registration
    // lock, which our registration holds while it waits for that row: a true deadlock. Ours, with the
    // shorter deadlock_timeout, is aborted (40P01), the writer gets the lock and rolls back, and the
    // retried registration succeeds. Without the retry, register would reject.
    const rogue = new pg.Client({ connectionString: databaseUrl });
    await rogue.connect();
    await rogue.query(`BEGIN; SET LOCAL deadlock_timeout = '30s'`);
    await rogue.query(`INSERT INTO identities VALUES (0, '1000', 'rogue', 'did:rogue', 0)`);
    const registration = storage.identities.register(identity(0));
    for (let waiting = 0; waiting === 0;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await rogue.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()`);
      waiting = Number(rows[0]?.n);
    }
    await rogue.query('SELECT pg_advisory_xact_lock($1)', [REGISTRATION_LOCK]);
    await rogue.query('ROLLBACK');
    await rogue.end();
    expect(await registration).toEqual({ inserted: true, leafIndex: 0 });
    expect(await storage.identities.findByCommitment('1000')).toMatchObject(identity(0));
    await storage.close();
  });
});

describe('storage on SQLite only', () => {
  it('opens the file in WAL mode with synchronous=FULL, a busy timeout and foreign keys', async () => {
    const dataDir = path.join(tempDir('zeroid-wal-'), 'nested', 'data');
    const database = openSqliteFile(dataDir);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(SQLITE_BUSY_TIMEOUT_MS);
    expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
    database.close();
    // WAL is a property of the file: openStorage left it so for every later reader too.
    const storage = await openStorage({ dataDir });
    await storage.close();
    const reader = new SQLite(path.join(dataDir, 'zeroid.sqlite'), { readonly: true });
    expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
    reader.close();
  });

  it('reports an insert that wrote nothing without a duplicate, instead of answering "already registered"', async () => {
    const dataDir = tempDir('zeroid-ignore-');
    const storage = await openStorage({ dataDir });
    const other = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
    other.exec('CREATE TRIGGER swallow BEFORE INSERT ON identities BEGIN SELECT RAISE(IGNORE); END');
    other.close();
    await expect(storage.identities.register(identity(0))).rejects.toThrow(/inserted nothing/);
    await storage.close();
  });
});
