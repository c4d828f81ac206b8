import type { Kysely } from 'kysely';

/**
 * When each challenge was issued (decision 085): a registration with a credential proves it valid on
 * the challenge's day, and the server must know that day, not guess it from its own clock. NULL for
 * challenges issued before this migration (they live a day at most); those read their issue time as
 * their expiry less today's TTL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('challenges').addColumn('issued_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('challenges').dropColumn('issued_at').execute();
}
