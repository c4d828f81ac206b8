import type { Kysely } from 'kysely';

/**
 * The fingerprint of each key the data depends on, recorded by the first server that uses the
 * database. Every commitment, DID and ID tag is a function of the OPRF key, so a server with another
 * key must refuse to start rather than register the same people again under new values. One row per
 * purpose ('oprf' today; a threshold mode would record its group key under its own purpose).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('key_fingerprints')
    .addColumn('purpose', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('key_fingerprints').execute();
}
