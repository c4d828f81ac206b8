import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { SQLite, type SqliteDatabase } from './sqlite-driver.ts';

/** How long a writer waits for another connection's write lock before SQLITE_BUSY (then a 503). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens `${dataDir}/zeroid.sqlite`. WAL with synchronous=FULL: a registration acknowledged to a
 * client has reached the disk, and survives `kill -9` or power loss (in WAL, NORMAL may lose the
 * last commits on power loss). The settings are read back, so a build or file system that ignores
 * them fails at start instead of silently weakening that promise.
 */
export function openSqliteFile(dataDir: string, { maxSizeBytes }: { maxSizeBytes?: number | undefined } = {}): SqliteDatabase {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'zeroid.sqlite');
  ownerOnly(file);
  const database = new SQLite(file);
  try {
    // A cap on the file, so the database fails with SQLITE_FULL (a 503) before it fills the volume.
    if (maxSizeBytes)
      database.pragma(`max_page_count = ${Math.ceil(maxSizeBytes / Number(database.pragma('page_size', { simple: true })))}`);
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    // Erasure erases the bytes (decision 034): content SQLite deletes or frees is overwritten
    // with zeros, in the page images it writes, so a freed cell or page holds nothing of an erased
    // identity. The WAL's older frames are cut by the truncating checkpoint after each erasure
    // (IdentityRepository.scrubErased).
    database.pragma('secure_delete = ON');
    // 64 MiB of page cache (the default is 2 MiB): at a million identities the three unique indexes
    // no longer fit in 2 MiB, and every registration would read their pages back from the OS.
    database.pragma('cache_size = -65536');
    const actual = {
      journal_mode: database.pragma('journal_mode', { simple: true }),
      synchronous: database.pragma('synchronous', { simple: true }),
      busy_timeout: database.pragma('busy_timeout', { simple: true }),
      foreign_keys: database.pragma('foreign_keys', { simple: true }),
      secure_delete: database.pragma('secure_delete', { simple: true }),
    };
    const expected = { journal_mode: 'wal', synchronous: 2, busy_timeout: SQLITE_BUSY_TIMEOUT_MS, foreign_keys: 1, secure_delete: 1 };
    if (Object.entries(expected).some(([name, value]) => actual[name as keyof typeof actual] !== value)) {
      throw new Error(`SQLite refused its durability settings: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
    zeroFreedPagesOnce(database);
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

/**
 * The database holds commitments, ID tags and attempt counters: readable by its owner only (0600),
 * like the OPRF key beside it. SQLite would create the file 0644; it creates -wal and -shm with the
 * mode of the database file, so making the file first, 0600, covers all three. Files left 0644 by
 * an earlier version are narrowed too.
 */
function ownerOnly(file: string) {
  closeSync(openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (existsSync(name)) chmodSync(name, 0o600);
  }
}

/** `PRAGMA user_version` from which every page this database freed was zeroed (secure_delete). */
const FREED_PAGES_ZEROED = 1;

/**
 * A database from before secure_delete may hold erased identities' values in its free pages and
 * freed cells (decision 022's erasures left them there). Once, the first time this version opens it,
 * and only if it has erasures, VACUUM rewrites the file without them; it takes about as long as
 * copying the file (minutes at ten million identities), which the log says. A new database, or one
 * without erasures, is only marked.
 */
function zeroFreedPagesOnce(database: SqliteDatabase) {
  if (Number(database.pragma('user_version', { simple: true })) >= FREED_PAGES_ZEROED) return;
  const erasures = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'leaf_erasures'").get()
    ? Number((database.prepare('SELECT COUNT(*) AS n FROM leaf_erasures').get() as { n: number }).n)
    : 0;
  if (erasures > 0) {
    console.warn(`SQLite: rewriting ${database.name} once (VACUUM) so that no freed page holds an erased identity's values…`);
    database.exec('VACUUM');
  }
  database.pragma(`user_version = ${FREED_PAGES_ZEROED}`);
}
