import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Checkpoints as binary pages of 1 MiB (decision 025): a checkpoint of ten million members is about
 * 660 MB, past what one text value (or one V8 string) can hold, and pages let start-up read it
 * straight into the tree's buffers. `tree_checkpoints` keeps one row a checkpoint, written after its
 * pages, so a checkpoint is visible only once whole. Pages are keyed by the tree's root as well as its
 * size: an erasure (decision 022) changes the tree without changing its size.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('tree_checkpoint_pages')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('bytes', sql.raw(bytes), (c) => c.notNull())
    .addPrimaryKeyConstraint('tree_checkpoint_pages_pkey', ['size', 'root', 'page'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tree_checkpoint_pages').execute();
}
