import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The tables an erasure rewrites or deletes from (IdentityRepository.erase). */
const ERASURE_TABLES = ['identities', 'roots', 'tree_checkpoints', 'tree_checkpoint_pages'] as const;
/** PostgreSQL: erasures within this long share one VACUUM. */
const VACUUM_DELAY_MS = 1000;

/**
 * What the database can do, right after an erasure commits, so the erased values' bytes do not
 * outlive their rows (issue 24, item 7; decision 034):
 *
 * - SQLite: with `secure_delete` on (sqlite-file.ts), the erasure's page images already hold zeros
 *   where the values were; the WAL still holds older frames with them (the registration's, earlier
 *   checkpoints'), and the main file the old pages until a checkpoint copies the new ones in. A
 *   checkpoint in TRUNCATE mode does both and cuts the WAL to zero bytes. It runs before the erasure
 *   is answered, so a Success means the bytes are gone from every file under DATA_DIR. It waits for
 *   readers (other connections) for up to the busy timeout, and is tried again if any stayed.
 * - PostgreSQL: an UPDATE leaves the old row version (with the values) in the heap, and its index
 *   entries, until a VACUUM; autovacuum would wait for 20 % of the table to be dead, which at ten
 *   million identities is two million erasures. A VACUUM of the erasure's tables (no lock that stops
 *   reads or writes) runs in the background, once for erasures close together. PostgreSQL does not
 *   zero freed space, nor WAL or backups: docs/deploy.md says what an operator must do.
 */
export function erasedBytesScrubber(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): () => Promise<void> {
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
        return sql`VACUUM ${sql.join(ERASURE_TABLES.map((table) => sql.table(table)))}`.execute(db);
      })
      // A failed VACUUM (the database gone, the pool closed at shutdown) leaves the old versions to the next
      // erasure's VACUUM or to autovacuum; the erasure itself is committed either way.
      .then(
        () => undefined,
        () => undefined,
      );
    return Promise.resolve();
  };
}
