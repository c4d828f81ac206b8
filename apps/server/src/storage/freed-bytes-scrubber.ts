import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The tables an erasure rewrites or deletes from (IdentityRepository.erase). */
export const ERASURE_TABLES = [
  'identities',
  'roots',
  'tree_checkpoints',
  'tree_checkpoint_pages',
  'credential_leaves',
  'credential_roots',
  'credential_tree_checkpoints',
  'credential_tree_checkpoint_pages',
] as const;
/** The tables that hold sign-in history and keys (decision 049): purged, forgotten, retired. */
export const SIGN_IN_TABLES = ['oidc_models', 'verification_sessions', 'oidc_keys'] as const;
/** PostgreSQL: scrubs within this long share one VACUUM. */
const VACUUM_DELAY_MS = 1000;
/**
 * SQLite: how long one checkpoint attempt waits for readers. A truncating checkpoint holds the
 * writer lock while it waits, and this process has one connection: every query waits with it.
 */
const CHECKPOINT_BUSY_TIMEOUT_MS = 20;
/** SQLite: the first retry of a checkpoint a reader held off, doubling up to the second. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;

/** A record, in the database, of how far the scrubs went, so a scrub a crash cut off runs again at start. */
export interface ScrubMark {
  /** Read right before a scrub: what it covers (for erasures, the last `leaf_erasures.seq`). */
  covered(): Promise<number>;
  /** Records that a scrub covered everything up to `covered`. */
  scrubbed(covered: number): Promise<void>;
}

/**
 * What the database can do, right after rows of `tables` were deleted or rewritten, so their bytes do
 * not outlive them (decisions 034, 049 and 053): an erased identity, a purged or
 * forgotten sign-in record, a retired key. The function schedules a scrub; `mark`, when given, is
 * moved on by each one that completes.
 *
 * - SQLite: with `secure_delete` on (sqlite-file.ts, for every table), the page images SQLite writes
 *   hold zeros where deleted or rewritten content was; the WAL still holds older frames with it, and
 *   the main file the old pages until a checkpoint copies the new ones in. A checkpoint in TRUNCATE
 *   mode does both and cuts the WAL to zero bytes, for the whole database whatever `tables` says. It
 *   waits for readers (another process's read transaction) at most 20 ms: it holds the writer lock
 *   while it waits, so a longer wait stalled every write and the reply itself (decision 053). The
 *   returned promise resolves after that first attempt: usually the bytes are then gone from every
 *   file under DATA_DIR. If a reader held it off, it stays pending and is tried again, 100 ms later
 *   and doubling up to 5 s, until it completes (or the database is closed).
 * - PostgreSQL: a DELETE or UPDATE leaves the old row version (with the values) in the heap, and its
 *   index entries, until a VACUUM; autovacuum would wait for 20 % of the table to be dead. A VACUUM of
 *   `tables` (no lock that stops reads or writes) runs in the background, once for scrubs close
 *   together. PostgreSQL does not zero freed space, nor WAL or backups: docs/deploy.md says what an
 *   operator must do.
 */
export function freedBytesScrubber(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  tables: readonly (keyof Database)[],
  mark?: ScrubMark,
): () => Promise<void> {
  /** One scrub, recorded in `mark` when it completed; false when it must be tried again. */
  const scrubOnce = async (scrub: () => Promise<boolean>) => {
    const covered = await mark?.covered();
    if (!(await scrub())) return false;
    if (covered !== undefined) await mark!.scrubbed(covered);
    return true;
  };

  if (dialect === 'sqlite') {
    let retrying = false;
    let again = false;
    const retry = async () => {
      retrying = true;
      try {
        for (let delayMs = RETRY_FIRST_MS; ; delayMs = Math.min(delayMs * 2, RETRY_MAX_MS)) {
          await sleep(delayMs, undefined, { ref: false });
          again = false;
          if ((await scrubOnce(() => truncatingCheckpoint(db))) && !again) return;
        }
      } catch {
        // The database was closed (or failed): the mark stays behind, and the next start scrubs.
      } finally {
        retrying = false;
      }
    };
    return async () => {
      if (retrying) {
        again = true;
        return;
      }
      if (!(await scrubOnce(() => truncatingCheckpoint(db)))) void retry();
    };
  }
  let scheduled: Promise<void> | undefined;
  return () => {
    scheduled ??= sleep(VACUUM_DELAY_MS, undefined, { ref: false })
      .then(() => {
        scheduled = undefined;
        return scrubOnce(async () => {
          await sql`VACUUM ${sql.join(tables.map((table) => sql.table(table)))}`.execute(db);
          return true;
        });
      })
      // A failed VACUUM (the database gone, the pool closed at shutdown, a crash) leaves the mark
      // behind: the next start VACUUMs again; what was deleted is committed either way.
      .then(
        () => undefined,
        () => undefined,
      );
    return Promise.resolve();
  };
}

/** One `PRAGMA wal_checkpoint(TRUNCATE)` that waits for readers at most CHECKPOINT_BUSY_TIMEOUT_MS: true when it completed. */
async function truncatingCheckpoint(db: Kysely<Database>): Promise<boolean> {
  return db.connection().execute(async (connection) => {
    const { rows: before } = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(connection);
    await sql.raw(`PRAGMA busy_timeout = ${CHECKPOINT_BUSY_TIMEOUT_MS}`).execute(connection);
    try {
      const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(connection);
      return rows[0]?.busy === 0;
    } finally {
      await sql.raw(`PRAGMA busy_timeout = ${Number(before[0]?.timeout)}`).execute(connection);
    }
  });
}
