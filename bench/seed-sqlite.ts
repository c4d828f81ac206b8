import { rmSync } from 'node:fs';
import path from 'node:path';
import { openStorage, SQLite, type SqliteDatabase } from './server.ts';
import { progressReporter } from './seed-progress.ts';
import { seedRows } from './seed-rows.ts';

const BATCH = 100_000;

/**
 * `identities` as migration 008 leaves it on SQLite, without its three UNIQUE constraints. The
 * columns, their affinities and NOT NULL must stay those of the real table: SQLite's transfer
 * optimization (below) applies only between tables of the same shape.
 */
export const STAGING_TABLE = `CREATE TABLE IF NOT EXISTS staging.identities (
  leaf_index integer PRIMARY KEY,
  commitment text,
  id_tag text,
  did text,
  created_at bigint NOT NULL)`;
/** One sorted index for each UNIQUE column of the real table. */
const UNIQUE_COLUMNS = ['commitment', 'id_tag', 'did'];
const stagingIndex = (column: string) => `identities_${column}`;
const TRANSFER = 'INSERT INTO main.identities SELECT * FROM staging.identities';

/**
 * The SQLite part of the large seed: `<dataDir>/zeroid.sqlite`, migrated to the newest schema by
 * the server's own migrations, then filled with rows `0 … count - 1` of `seedRows(key)`.
 *
 * Inserted one by one, each row lands at a random place in three UNIQUE indexes (commitment, ID tag,
 * DID are random): once those outgrow the cache every row costs page reads, and ten million ran at
 * 1,244 rows/s by 2.9 M. So the rows go in three steps, each resumable:
 * 1. appended in leaf order to a staging table without indexes in `seed-staging.sqlite` beside the
 *    database (one transaction a batch, resuming after the last committed row);
 * 2. each index built once on it by `CREATE UNIQUE INDEX IF NOT EXISTS`, which sorts instead of
 *    inserting at random (a killed build rolls back and is simply run again);
 * 3. copied into the empty `identities` by one `INSERT … SELECT *`: between tables of the same
 *    shape SQLite's transfer optimization (the one VACUUM uses) copies the table and each index
 *    b-tree in order, pages appended at the end. One transaction: a kill leaves `identities` empty.
 * Then the staging file is deleted. The real table, its autoindexes and every later migration are
 * exactly the server's, so a server started on it migrates nothing.
 *
 * Neither file uses `journal_mode = OFF`: a kill inside a transaction would then corrupt it. A
 * rollback journal costs next to nothing here, since pages appended past the file's end are not
 * journaled; `synchronous = OFF` risks only an OS crash, after which the seed is run from scratch.
 */
export async function seedSqlite(dataDir: string, key: Buffer, count: number, createdAt: number): Promise<void> {
  await (await openStorage({ dataDir })).close();
  const stagingFile = path.join(dataDir, 'seed-staging.sqlite');
  const db = new SQLite(path.join(dataDir, 'zeroid.sqlite'));
  try {
    const seeded = () => (db.prepare('SELECT COUNT(*) AS n FROM identities').get() as { n: number }).n;
    if (seeded() >= count) {
      rmSync(stagingFile, { force: true });
      return;
    }
    // The transfer fills an empty table only (a kill leaves it empty); rows from elsewhere are not ours to mix with.
    if (seeded() > 0) throw new Error(`sqlite: identities already holds ${seeded()} rows: seed an empty directory`);
    db.pragma('synchronous = OFF');
    // 1 GB of page cache; the index builds' sorter uses as much memory before it spills to files.
    db.pragma('cache_size = -1000000');
    attachStaging(db, stagingFile);
    db.pragma('threads = 2');
    db.exec(STAGING_TABLE);
    const adopted = db.prepare("SELECT 1 FROM staging.sqlite_master WHERE name LIKE 'sqlite_autoindex_identities_%'").get();
    if (!adopted) {
      appendRows(db, key, count, createdAt);
      buildIndexes(db);
      adoptRealSchema(db, stagingFile);
    }
    transfer(db);
    if (seeded() !== count) throw new Error(`sqlite: ${seeded()} identities after the transfer, expected ${count}`);
    checkLookups(db, key, count);
    db.exec('DETACH DATABASE staging');
  } finally {
    db.close();
  }
  rmSync(stagingFile, { force: true });
}

function attachStaging(db: SqliteDatabase, stagingFile: string) {
  db.exec(`ATTACH DATABASE '${stagingFile.replaceAll("'", "''")}' AS staging`);
  db.pragma('staging.journal_mode = DELETE');
  db.pragma('staging.synchronous = OFF');
  db.pragma('staging.cache_size = -1000000');
}

/** Step 1: rows after the last committed one, one transaction a batch. */
function appendRows(db: SqliteDatabase, key: Buffer, count: number, createdAt: number) {
  const have = (db.prepare('SELECT COALESCE(MAX(leaf_index), -1) + 1 AS n FROM staging.identities').get() as { n: number }).n;
  const insert = db.prepare('INSERT INTO staging.identities (leaf_index, commitment, id_tag, did, created_at) VALUES (?, ?, ?, ?, ?)');
  const insertAll = db.transaction((rows: ReturnType<typeof seedRows>) => {
    for (const row of rows) insert.run(row.leafIndex, row.commitment.toString(), row.idTag, row.did, createdAt);
  });
  const report = progressReporter('sqlite rows', count, have);
  for (let start = have; start < count; start += BATCH) {
    insertAll(seedRows(key, start, Math.min(BATCH, count - start)));
    report(Math.min(start + BATCH, count));
  }
}

/** Step 2: each UNIQUE index built by sorting (IF NOT EXISTS: a killed build rolled back and runs again). */
function buildIndexes(db: SqliteDatabase) {
  for (const column of UNIQUE_COLUMNS) {
    const started = performance.now();
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS staging.${stagingIndex(column)} ON identities (${column})`);
    console.error(`sqlite: index on ${column} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}

/**
 * Step 2, end: the staging table takes the real table's definition, its indexes becoming that
 * definition's UNIQUE autoindexes. The transfer optimization copies an index only into one of the
 * same kind, and an index made by `CREATE UNIQUE INDEX` differs from a UNIQUE constraint's in its
 * conflict clause (ABORT against the default). An autoindex is stored exactly as the unique index
 * on its column, so only the staging file's schema rows change (`writable_schema`, in one
 * transaction, on the throwaway file only): its table's SQL is copied from the real one, and each
 * index takes the autoindex name the real table gives its column. The real database is written
 * only by SQLite's own statements.
 */
function adoptRealSchema(db: SqliteDatabase, stagingFile: string) {
  const schemaRows = "SELECT name, sql FROM %s.sqlite_master WHERE tbl_name = 'identities'";
  const real = db.prepare(schemaRows.replace('%s', 'main')).all() as Array<{ name: string; sql: string | null }>;
  const tableSql = real.find((row) => row.name === 'identities')!.sql!;
  const autoindexes = real.filter((row) => row.name.startsWith('sqlite_autoindex_identities_'));
  db.unsafeMode(true);
  db.pragma('writable_schema = ON');
  const rename = db.prepare("UPDATE staging.sqlite_master SET name = ?, sql = NULL WHERE type = 'index' AND name = ?");
  db.transaction(() => {
    db.prepare("UPDATE staging.sqlite_master SET sql = ? WHERE type = 'table' AND name = 'identities'").run(tableSql);
    for (const { name } of autoindexes) {
      const [column] = db.prepare(`PRAGMA main.index_info('${name}')`).all() as Array<{ name: string }>;
      if (rename.run(name, stagingIndex(column!.name)).changes !== 1) throw new Error(`sqlite: no staging index for ${name}`);
    }
  })();
  db.pragma('writable_schema = OFF');
  db.unsafeMode(false);
  // The connection still holds the old staging schema: attach the file again to read the new one.
  db.exec('DETACH DATABASE staging');
  attachStaging(db, stagingFile);
}

/**
 * Step 3. SQLite falls back to inserting row by row, silently, when the two tables differ in shape
 * (which would take hours at ten million), so the plan is checked first: the transfer reads whole
 * records (`RowData`) instead of building them from columns.
 */
function transfer(db: SqliteDatabase) {
  const plan = db.prepare(`EXPLAIN ${TRANSFER}`).all() as Array<{ opcode: string }>;
  if (!plan.some((step) => step.opcode === 'RowData')) {
    throw new Error('sqlite: the staging table no longer has the shape of identities (no transfer optimization)');
  }
  // A rollback journal for the one big transaction: in WAL every page would be written twice.
  db.pragma('main.journal_mode = DELETE');
  const started = performance.now();
  db.exec(TRANSFER);
  console.error(`sqlite: rows and indexes copied into identities in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // The server opens it in WAL (and checks that it is).
  db.pragma('main.journal_mode = WAL');
}

/**
 * Each UNIQUE index finds rows spread over the whole table (the planner looks these up through it):
 * an autoindex given another column's b-tree in step 2 would find none of them. A full
 * `PRAGMA integrity_check` would take minutes at ten million.
 */
function checkLookups(db: SqliteDatabase, key: Buffer, count: number) {
  const samples = Math.min(count, 200);
  const lookups = UNIQUE_COLUMNS.map((column) => db.prepare(`SELECT leaf_index AS leafIndex FROM identities WHERE ${column} = ?`));
  for (let i = 0; i < samples; i += 1) {
    const row = seedRows(key, Math.floor(((i + 0.5) * count) / samples), 1)[0]!;
    [row.commitment.toString(), row.idTag, row.did].forEach((value, column) => {
      const found = lookups[column]!.get(value) as { leafIndex: number } | undefined;
      if (found?.leafIndex !== row.leafIndex)
        throw new Error(`sqlite: the index on ${UNIQUE_COLUMNS[column]} misses leaf ${row.leafIndex}`);
    });
  }
}
