import type { Kysely } from 'kysely';

/**
 * A sign-in proved on a phone that also proved a credential (decision 088): the issuer's public key,
 * written with the pseudonym by the UPDATE that completes the session, read once by the screen that
 * finishes the login, and cleared with the pseudonym. Never anything of the credential leaf.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').addColumn('credential_issuer', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').dropColumn('credential_issuer').execute();
}
