import type { Kysely } from 'kysely';

/**
 * Snapshots of the Merkle tree (every node, as LeanIMT exports them), so that start-up loads the
 * tree instead of hashing every leaf again, minutes at a million (docs/benchmarks.md, "Tree hashing").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tree_checkpoints')
    .addColumn('size', 'integer', (c) => c.primaryKey())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('nodes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tree_checkpoints').execute();
}
