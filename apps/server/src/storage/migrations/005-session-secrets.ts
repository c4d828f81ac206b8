import type { Kysely } from 'kysely';

/**
 * A session's outcome is readable only by the screen that created it: the row keeps a SHA-256 of the
 * secret that screen holds, never the secret. Sessions from before this migration have none and can
 * no longer be read; they expire within minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').addColumn('secret_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').dropColumn('secret_hash').execute();
}
