import type { Kysely } from 'kysely';

/**
 * Which person and which site each of the OpenID provider's records is about (decision 036):
 * `account_id` (the pseudonym, `sub`, at that record's site) and `client_id`, copied from the
 * record's payload when it is written, so that an erasure can remove every record naming a person's
 * pseudonyms, a logout every record of one person at one site, and `remove-client` every record of
 * that site, each with one indexed DELETE. A record names at most one pseudonym and one client: the
 * provider keeps no login across sign-ins. Rows written before this migration have neither and expire
 * within their ten minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_models').addColumn('account_id', 'text').execute();
  await db.schema.alterTable('oidc_models').addColumn('client_id', 'text').execute();
  await db.schema.createIndex('oidc_models_account_id').on('oidc_models').column('account_id').execute();
  await db.schema.createIndex('oidc_models_client_id').on('oidc_models').column('client_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('oidc_models_client_id').execute();
  await db.schema.dropIndex('oidc_models_account_id').execute();
  await db.schema.alterTable('oidc_models').dropColumn('client_id').execute();
  await db.schema.alterTable('oidc_models').dropColumn('account_id').execute();
}
