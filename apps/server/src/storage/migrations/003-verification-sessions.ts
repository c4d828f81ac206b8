import type { Kysely } from 'kysely';

/** Cross-device verification sessions: a screen shows a QR code, a phone completes it, once. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('verification_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('verification_sessions').execute();
}
