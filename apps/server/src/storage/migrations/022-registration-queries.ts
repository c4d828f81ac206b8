import type { Kysely } from 'kysely';

/**
 * Every blinded OPRF point a protocol v3 registration was proven from (decision 056): one
 * evaluation, one registration. Without it, a client holding one honest round for a biometric and
 * one for an ID could prove any number of registrations from them, each under a fresh challenge (the
 * same commitment and tag would be refused, but the rounds would not). `point` is the canonical
 * encoding of B (`encodePoint`, base64url), written in the registration's own transaction, so a
 * registration and the record of its points commit together or not at all. B = H₁(x) + r·G is
 * uniformly random whatever the text, and the client drops r: the row says nothing of the person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('registration_queries')
    .addColumn('point', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registration_queries').execute();
}
