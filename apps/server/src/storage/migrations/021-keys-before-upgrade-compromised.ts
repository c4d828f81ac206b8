import { sql, type Kysely } from 'kysely';

/**
 * Every signing key and cookie secret stored before this upgrade is compromised (decision 055). A
 * release (decision 038) sealed keys it found in clear in place and kept them: sealed now, they look
 * like any other key, yet their clear bytes are in every backup taken before that release. Which keys
 * those are cannot be told, so every key present now (and not already retiring) is marked, and is
 * retired with a successor on the path decision 049 gave keys found in clear (`retireClearKeys`).
 * The mark carries no time: the retirement is dated by the database's clock when a process loads the
 * keys, so a migration run long before the server starts retires nothing early.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_keys')
    .addColumn('compromised', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE oidc_keys SET compromised = 1 WHERE retire_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_keys').dropColumn('compromised').execute();
}
