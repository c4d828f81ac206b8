import type { Kysely } from 'kysely';

/**
 * When a key leaves the JWKS for good (decision 049). A signing key or cookie secret that an earlier
 * version kept in clear is sealed when first read, but its clear bytes were in the database, its WAL
 * and its backups: it is treated as compromised. A new key replaces it, and `retire_at` says when
 * the old one stops being published (a signing key: once the new one has signed for a refresh
 * interval; a cookie secret: at once); from then on every process drops it and it is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_keys').addColumn('retire_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_keys').dropColumn('retire_at').execute();
}
