import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { BucketIndex, checkpointPieces, openStorage, PackedLeanIMT, savePagedCheckpoint, type Storage } from './server.ts';
import { startPersistentPostgres } from './persistent-postgres.ts';
import { progressReporter, recordSeedTime } from './seed-progress.ts';
import { seedCommitmentBytes, seedRows } from './seed-rows.ts';
import { seedSqlite } from './seed-sqlite.ts';
import { buildNativeHasher, hashLevelsNative } from './seed-native-tree.ts';
import { hashLevels, levelFile } from './seed-tree-levels.ts';

/**
 * `tsx bench/seed-large.ts --count 10000000 --dir .tmp/scale-10m --part sqlite|postgres|tree`:
 * fills one part of a large scale data set, resumably (run it again after a kill and it continues):
 * - `tree`: the LeanIMT's levels as files of 32-byte nodes (hashed once, shared by both databases);
 * - `sqlite`: `<dir>/sqlite/zeroid.sqlite`: rows staged, indexes sorted, then copied in (seed-sqlite.ts);
 * - `postgres`: a persistent embedded PostgreSQL in `<dir>/postgres`, rows through multi-row INSERTs.
 * Every part derives the same rows from `<dir>/seed-key` (`seedRows`), so the parts can run at the
 * same time, each in its own (niced) process. `--part finish`, once all three are done, records the
 * root and writes the paged checkpoint into both databases (or `--databases sqlite`), as a server
 * would have left them.
 * Never point it at a real registry.
 */
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000000' },
    dir: { type: 'string' },
    part: { type: 'string' },
    databases: { type: 'string', default: 'sqlite,postgres' },
  },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');
const dir = path.resolve(values.dir ?? '.tmp/scale-10m');
mkdirSync(dir, { recursive: true });
const keyFile = path.join(dir, 'seed-key');
if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32));
const key = readFileSync(keyFile);
const timesFile = path.join(dir, 'seed-times.json');
const BATCH = 10_000;
const CREATED_AT = Date.now();

async function seedTree() {
  const treeDir = path.join(dir, 'tree');
  mkdirSync(treeDir, { recursive: true });
  const leaves = levelFile(treeDir, 0);
  let have = 0;
  if (existsSync(leaves)) {
    const bytes = statSync(leaves).size;
    have = Math.floor(bytes / 32);
    if (bytes % 32 !== 0) truncateSync(leaves, have * 32);
  }
  const fd = openSync(leaves, 'a');
  for (let start = have; start < count; start += 100_000) {
    writeSync(fd, seedCommitmentBytes(key, start, Math.min(100_000, count - start)));
  }
  closeSync(fd);
  // poseidon-lite takes ~0.2 ms a hash here, an hour at ten million; the C hasher a few µs.
  const native = buildNativeHasher(path.join(dir, 'native'));
  if (!native) console.error('No C compiler: hashing in JavaScript, slowly.');
  const root = native ? hashLevelsNative(native, treeDir, count) : hashLevels(treeDir, count);
  writeFileSync(path.join(treeDir, 'root.json'), JSON.stringify({ size: count, root: root.toString() }) + '\n');
  return { root: root.toString() };
}

async function seedSqliteDir() {
  await seedSqlite(path.join(dir, 'sqlite'), key, count, CREATED_AT);
  return {};
}

async function seedPostgres() {
  const postgres = await startPersistentPostgres(path.join(dir, 'postgres'));
  try {
    await (await openStorage({ databaseUrl: postgres.url, dataDir: dir })).close();
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    await client.query('SET synchronous_commit = off');
    const have = Number((await client.query<{ n: string }>('SELECT COALESCE(MAX(leaf_index), -1) + 1 AS n FROM identities')).rows[0]!.n);
    const report = progressReporter('postgres', count, have);
    for (let start = have; start < count; start += BATCH) {
      const rows = seedRows(key, start, Math.min(BATCH, count - start));
      await client.query(
        `INSERT INTO identities (leaf_index, commitment, id_tag, did, created_at)
         SELECT *, ${CREATED_AT}::bigint FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])`,
        [rows.map((r) => r.leafIndex), rows.map((r) => r.commitment.toString()), rows.map((r) => r.idTag), rows.map((r) => r.did)],
      );
      report(Math.min(start + BATCH, count));
    }
    await client.end();
  } finally {
    await postgres.stop();
  }
  return {};
}

/** The tree from the level files and each leaf's bucket (sha256 of the decimal commitment, as memberBucket). */
function treeFromLevels(): { tree: PackedLeanIMT; buckets: BucketIndex } {
  const { tree, levels } = PackedLeanIMT.allocate(count);
  levels.forEach((level, i) => {
    const bytes = readFileSync(levelFile(path.join(dir, 'tree'), i));
    if (bytes.length < level.length) throw new Error(`level ${i} of the tree is not finished: run --part tree`);
    bytes.copy(level, 0, 0, level.length);
  });
  const bucketOf = new Uint16Array(count);
  for (let i = 0; i < count; i += 1) {
    const digest = createHash('sha256').update(tree.leaf(i)!.toString()).digest();
    bucketOf[i] = digest.readUInt16BE(0);
  }
  const buckets = new BucketIndex();
  buckets.load(bucketOf);
  return { tree, buckets };
}

async function finishDatabase(storage: Storage, tree: PackedLeanIMT, buckets: BucketIndex) {
  if ((await storage.identities.leafCount()) !== count) throw new Error(`the ${storage.dialect} database is not seeded to ${count}`);
  const root = tree.root.toString();
  await storage.roots.record(count, root);
  if ((await storage.checkpoints.latest(count))?.size !== count) {
    await savePagedCheckpoint(storage.checkpoints, { size: count, root, pieces: checkpointPieces(tree, buckets) });
  }
}

async function finish() {
  const { tree, buckets } = treeFromLevels();
  const expected = (JSON.parse(readFileSync(path.join(dir, 'tree', 'root.json'), 'utf8')) as { root: string }).root;
  if (tree.root.toString() !== expected) throw new Error('the level files do not end in the recorded root');
  const databases = values.databases.split(',');
  if (databases.includes('sqlite')) {
    const sqlite = await openStorage({ dataDir: path.join(dir, 'sqlite') });
    await finishDatabase(sqlite, tree, buckets).finally(() => sqlite.close());
  }
  if (!databases.includes('postgres')) return { root: expected, databases };
  const postgres = await startPersistentPostgres(path.join(dir, 'postgres'));
  try {
    const storage = await openStorage({ databaseUrl: postgres.url, dataDir: dir });
    await finishDatabase(storage, tree, buckets).finally(() => storage.close());
  } finally {
    await postgres.stop();
  }
  return { root: expected };
}

const parts = { tree: seedTree, sqlite: seedSqliteDir, postgres: seedPostgres, finish };
const part = values.part as keyof typeof parts;
if (!(part in parts)) throw new Error(`--part must be one of ${Object.keys(parts).join(', ')}`);
const started = performance.now();
// A stopped seed keeps the time it ran (it resumes where it stopped).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    recordSeedTime(timesFile, part, (performance.now() - started) / 1000, { done: false });
    process.exit(130);
  });
}
let outcome: Record<string, unknown> = {};
try {
  outcome = await parts[part]();
  outcome = { ...outcome, done: true, count };
} finally {
  recordSeedTime(timesFile, part, (performance.now() - started) / 1000, outcome);
}
console.error(`${part}: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(0);
