import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The tables an erasure rewrites or deletes from (IdentityRepository.erase). */
export const ERASURE_TABLES = ['identities', 'roots', 'tree_checkpoints', 'tree_checkpoint_pages'] as const;
/** The tables that hold sign-in history and keys (decision 049): purged, forgotten, retired. */
export const SIGN_IN_TABLES = ['oidc_models', 'verification_sessions', 'oidc_keys'] as const;
/** PostgreSQL: scrubs within this long share one VACUUM. */
const VACUUM_DELAY_MS = 1000;

/**
 * What the database can do, right after rows of `tables` were deleted or rewritten, so their bytes do
 * not outlive them (issue 24, item 7; decisions 034 and 049): an erased identity, a purged or
 * forgotten sign-in record, a retired key.
 *
 * - SQLite: with `secure_delete` on (sqlite-file.ts, for every table), the page images SQLite writes
 *   hold zeros where deleted or rewritten content was; the WAL still holds older frames with it, and
 *   the main file the old pages until a checkpoint copies the new ones in. A checkpoint in TRUNCATE
 *   mode does both and cuts the WAL to zero bytes, for the whole database whatever `tables` says. It
 *   waits for readers (other connections) for up to the busy timeout, and is tried again if any
 *   stayed; when it resolves, the bytes are gone from every file under DATA_DIR.
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
): () => Promise<void> {
  if (dialect === 'sqlite') {
    return async () => {
      for (let attempt = 1; ; attempt++) {
        const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
        if (rows[0]?.busy === 0 || attempt >= 10) return;
        await sleep(50 * attempt);
      }
    };
  }
  let scheduled: Promise<void> | undefined;
  return () => {
    scheduled ??= sleep(VACUUM_DELAY_MS, undefined, { ref: false })
      .then(() => {
        scheduled = undefined;
        return sql`VACUUM ${sql.join(tables.map((table) => sql.table(table)))}`.execute(db);
      })
      // A failed VACUUM (the database gone, the pool closed at shutdown) leaves the old versions to the next
      // scrub's VACUUM or to autovacuum; what was deleted is committed either way.
      .then(
        () => undefined,
        () => undefined,
      );
    return Promise.resolve();
  };
}
