import { sql, type Kysely } from 'kysely';

/**
 * Failed-verification counters used to be keyed by SHA-256 of the client address, which anyone can
 * reverse by hashing every IPv4 address. Counters are now keyed by an HMAC under a server secret
 * (`failures:…`, `guesses:…`) and the old rows are never read again: they are deleted here rather
 * than left to age out over the next day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM attempt_counters WHERE key LIKE ${'failed-verification:%'}`.execute(db);
}

export async function down(): Promise<void> {
  // The deleted rows were throttling state only; nothing to restore.
}
