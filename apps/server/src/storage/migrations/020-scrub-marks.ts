import type { Kysely } from 'kysely';

/**
 * How far the freed bytes were scrubbed (decision 053). An erasure's scrub (PostgreSQL: a VACUUM a
 * second later; SQLite: a truncating checkpoint, retried while a reader holds it off) runs after the
 * erasure committed, and a crash in between lost it for good: the values stayed in the heap, or in
 * the WAL. `name` 'erasures' holds the last `leaf_erasures.seq` a completed scrub covered; at start
 * the server scrubs again when the log goes further.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scrub_marks')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('seq', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scrub_marks').execute();
}
