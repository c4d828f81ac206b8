import type { Kysely } from 'kysely';

/**
 * A removed client leaves its id behind (decision 038): `remove-client` sets `removed_at` and clears
 * the metadata's secret instead of deleting the row, so `add-client` can refuse to give that id,
 * whose sector is the id itself, to another site, which would then receive the removed site's
 * pseudonyms. A removed client is invisible to the provider.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_clients').addColumn('removed_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_clients').dropColumn('removed_at').execute();
}
