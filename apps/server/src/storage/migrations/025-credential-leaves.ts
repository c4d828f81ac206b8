import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The credential tree (decision 088): one leaf per identity registered with a credential,
 * L = Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret), which hides both the person's secret and the
 * issuer. `position` is the leaf's place in the credential tree, dense from 0 in insert order,
 * assigned under the registration lock as `identities.leaf_index` is; `leaf_index` is the identity's,
 * so that an erasure of the identity finds its credential leaf. Nothing here is ever written by a
 * sign-in: a sign-in proves membership of some leaf and the server never learns which.
 *
 * `credential_leaf_erasures` is the credential tree's change log, as `leaf_erasures` is the member
 * tree's (decision 022): `seq` gapless under the registration lock, the position set to '0', no time.
 * `credential_roots` is the credential tree's own root history, with the shape of `roots`, and
 * `credential_tree_checkpoints` with `credential_tree_checkpoint_pages` its checkpoints, with the shape
 * of the member tree's (decision 025): an erasure deletes those holding its leaf, as for the member tree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credential_leaves')
    .addColumn('position', 'integer', (c) => c.primaryKey())
    .addColumn('leaf', 'text', (c) => c.notNull())
    .addColumn('leaf_index', 'integer', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('credential_leaf_erasures')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('credential_roots')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('credential_roots_pkey', ['size', 'root'])
    .execute();
  await db.schema.createIndex('credential_roots_root').on('credential_roots').column('root').execute();
  await db.schema
    .createTable('credential_tree_checkpoints')
    .addColumn('size', 'integer', (c) => c.primaryKey())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('nodes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('credential_tree_checkpoint_pages')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('bytes', sql.raw(db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob'), (c) => c.notNull())
    .addPrimaryKeyConstraint('credential_tree_checkpoint_pages_pkey', ['size', 'root', 'page'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credential_tree_checkpoint_pages').execute();
  await db.schema.dropTable('credential_tree_checkpoints').execute();
  await db.schema.dropTable('credential_roots').execute();
  await db.schema.dropTable('credential_leaf_erasures').execute();
  await db.schema.dropTable('credential_leaves').execute();
}
