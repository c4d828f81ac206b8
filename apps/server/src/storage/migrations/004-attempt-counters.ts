import type { Kysely } from 'kysely';

/**
 * Attempt counters that outlive a restart and are shared by every process on the database: the
 * global guess budget (one row per fixed window) and failed verifications per client (keyed by a
 * hash of the client address, never the address itself).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attempt_counters_last_at').on('attempt_counters').column('last_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attempt_counters').execute();
}
