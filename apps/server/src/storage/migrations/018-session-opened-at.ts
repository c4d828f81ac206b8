import type { Kysely } from 'kysely';

/**
 * When a phone opened a pending session's link (decision 047), so every process can tell the screen
 * "phone connected, waiting" (decision 043): before, the mark lived in the memory of the process that
 * served the phone, and a screen followed by another process never saw it. Set once, by a
 * conditional UPDATE; a hint, never a decision.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').addColumn('opened_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verification_sessions').dropColumn('opened_at').execute();
}
