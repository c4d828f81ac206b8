import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Erasure (decision 022). An erased identity keeps its row, because the tree's leaves must stay
 * exactly 0..n-1, but loses everything that was derived from the person: its commitment, ID tag and
 * DID become NULL (UNIQUE allows any number of NULLs in both dialects) and its registration time 0.
 * So the three columns become nullable.
 *
 * `roots` was keyed by tree size, since a tree only grew. Erasing a leaf changes the root at the same
 * size, so a size may now have several roots: the key becomes (size, root).
 *
 * `leaf_erasures` is the ordered change log every process polls when it catches up (`seq` is
 * gapless, assigned under the registration lock like `leaf_index`). It holds no time and no value,
 * only which leaf became zero, which the tree itself shows to anyone anyway.
 *
 * `deactivated_dids` is the tombstone that makes `GET /did/:did` answer `deactivated: true`: SHA-256
 * of the DID, so that the table cannot be listed to learn erased DIDs, only asked about a known one.
 *
 * SQLite cannot drop a NOT NULL or change a primary key in place, so its two tables are rebuilt
 * (inside the migration's BEGIN IMMEDIATE: all or nothing); PostgreSQL alters them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE identities ALTER COLUMN commitment DROP NOT NULL, ALTER COLUMN id_tag DROP NOT NULL, ALTER COLUMN did DROP NOT NULL`.execute(
      db,
    );
    await sql`ALTER TABLE roots DROP CONSTRAINT roots_pkey, ADD PRIMARY KEY (size, root)`.execute(db);
  } else {
    await sql`CREATE TABLE identities_008 (
      leaf_index integer PRIMARY KEY,
      commitment text UNIQUE,
      id_tag text UNIQUE,
      did text UNIQUE,
      created_at bigint NOT NULL)`.execute(db);
    await sql`INSERT INTO identities_008 SELECT leaf_index, commitment, id_tag, did, created_at FROM identities`.execute(db);
    await sql`DROP TABLE identities`.execute(db);
    await sql`ALTER TABLE identities_008 RENAME TO identities`.execute(db);

    await sql`CREATE TABLE roots_008 (size integer NOT NULL, root text NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (size, root))`.execute(
      db,
    );
    await sql`INSERT INTO roots_008 SELECT size, root, created_at FROM roots`.execute(db);
    await sql`DROP TABLE roots`.execute(db);
    await sql`ALTER TABLE roots_008 RENAME TO roots`.execute(db);
    await db.schema.createIndex('roots_root').on('roots').column('root').execute();
  }

  await db.schema
    .createTable('leaf_erasures')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('leaf_index', 'integer', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('deactivated_dids')
    .addColumn('did_hash', 'text', (c) => c.primaryKey())
    .execute();
}

export async function down(): Promise<void> {
  // Erased rows cannot be given back their values: there is nothing to restore.
}
