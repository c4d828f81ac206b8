import type { Kysely } from 'kysely';

/**
 * Sign in with ZeroID on a phone (decision 029): a cross-device session can belong to one
 * authorization request (`sign_in`, the provider's interaction id, set when the sign-in screen
 * creates it), and a phone's accepted proof stores the pseudonym it proved (`subject`) in the same
 * conditional UPDATE that completes the session, for the sign-in screen to finish the login with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').addColumn('sign_in', 'text').execute();
  await db.schema.alterTable('verification_sessions').addColumn('subject', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').dropColumn('subject').execute();
  await db.schema.alterTable('verification_sessions').dropColumn('sign_in').execute();
}
