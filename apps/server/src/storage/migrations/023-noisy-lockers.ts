import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The lockers of noisy biometrics (decision 084; only written with EXPERIMENTAL_NOISY_BIOMETRICS):
 * one row a locker, `key` = the locker's number (2 bytes) ‖ its tag (8 bytes) and `seal` = the
 * person's seed ⊕ a pad (16 bytes), both hashes of an OPRF output, so the table holds no template
 * and tests no guess without the key. The primary key is the lookup a verification makes and the
 * check a second registration of the same eye meets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const bytes = postgres ? 'bytea' : 'blob';
  const table = db.schema
    .createTable('noisy_lockers')
    .addColumn('key', sql.raw(bytes), (c) => c.primaryKey())
    .addColumn('seal', sql.raw(bytes), (c) => c.notNull());
  // In SQLite the key is the table's own b-tree: a rowid table would keep every key twice, in the
  // table and in its index, some 20,000 rows an identity.
  await (postgres ? table : table.modifyEnd(sql`without rowid`)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('noisy_lockers').execute();
}
