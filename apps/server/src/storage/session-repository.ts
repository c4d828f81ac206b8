import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { SessionRepository } from './types.ts';

/** Sessions complete once: one conditional UPDATE decides, across every process. */
export function sessionRepository(db: Kysely<Database>): SessionRepository {
  return {
    async create(id, expiresAt) {
      await db
        .insertInto('verification_sessions')
        .values({ id, status: 'pending', expires_at: expiresAt.getTime(), completed_at: null })
        .execute();
    },

    async find(id, now = new Date()) {
      const row = await db.selectFrom('verification_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const expiresAt = new Date(Number(row.expires_at));
      const status =
        row.status === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : (row.status as 'pending' | 'success' | 'failure');
      return { id: row.id, status, expiresAt };
    },

    async complete(id, status, now = new Date()) {
      const result = await db
        .updateTable('verification_sessions')
        .set({ status, completed_at: now.getTime() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async purgeExpired(now = new Date()) {
      const result = await db
        .deleteFrom('verification_sessions')
        .where('expires_at', '<=', now.getTime() - 3_600_000)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
