import type { Kysely } from 'kysely';

/**
 * leaf_index is a plain integer key, not a sequence: sequences skip values on rollback, and a gap
 * would break the Merkle tree, whose leaves must be exactly 0..n-1. Registration assigns
 * MAX(leaf_index) + 1 under a lock instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('identities')
    .addColumn('leaf_index', 'integer', (c) => c.primaryKey())
    .addColumn('commitment', 'text', (c) => c.notNull().unique())
    .addColumn('id_tag', 'text', (c) => c.notNull().unique())
    .addColumn('did', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('roots')
    .addColumn('size', 'integer', (c) => c.primaryKey())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('roots_root').on('roots').column('root').execute();

  await db.schema
    .createTable('challenges')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('challenges_expires_at').on('challenges').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('challenges').execute();
  await db.schema.dropTable('roots').execute();
  await db.schema.dropTable('identities').execute();
}
