import type { Kysely } from 'kysely';

/**
 * The person at the screen completes a cross-device session (decision 035). A phone whose proof
 * completes a session is given a six-digit confirmation code; the screen's person must type it on
 * the screen before the screen moves on. `confirmation_hash` is SHA-256 of the domain-separated
 * session id and code (hygiene only: a database thief gains nothing from it, having no session
 * secret or interaction cookie), `confirm_attempts` counts wrong codes typed, and `confirmed_at` is
 * set once, by the one UPDATE that accepts the right code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').addColumn('confirmation_hash', 'text').execute();
  await db.schema
    .alterTable('verification_sessions')
    .addColumn('confirm_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('verification_sessions').addColumn('confirmed_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').dropColumn('confirmed_at').execute();
  await db.schema.alterTable('verification_sessions').dropColumn('confirm_attempts').execute();
  await db.schema.alterTable('verification_sessions').dropColumn('confirmation_hash').execute();
}
