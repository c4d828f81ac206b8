import type { Kysely, Selectable } from 'kysely';
import type { Database } from './schema.ts';
import type { SessionRepository, StoredSession } from './types.ts';

/** Well under SQLite's and PostgreSQL's limits on bound parameters in one statement. */
const IDS_PER_QUERY = 500;

function toSession(row: Selectable<Database['verification_sessions']>, now: Date): StoredSession {
  const expiresAt = new Date(Number(row.expires_at));
  const status =
    row.status === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : (row.status as 'pending' | 'success' | 'failure');
  return {
    id: row.id,
    status,
    expiresAt,
    secretHash: row.secret_hash,
    ...(row.sign_in === null ? {} : { signIn: row.sign_in }),
    ...(row.subject === null ? {} : { subject: row.subject }),
  };
}

/** Sessions complete once: one conditional UPDATE decides, across every process. */
export function sessionRepository(db: Kysely<Database>): SessionRepository {
  return {
    async create(id, expiresAt, secretHash, signIn) {
      await db
        .insertInto('verification_sessions')
        .values({
          id,
          status: 'pending',
          expires_at: expiresAt.getTime(),
          completed_at: null,
          secret_hash: secretHash,
          sign_in: signIn ?? null,
        })
        .execute();
    },

    async find(id, now = new Date()) {
      const row = await db.selectFrom('verification_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row, now);
    },

    async findCompleted(ids) {
      const completed = new Map<string, 'success' | 'failure'>();
      for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
        const rows = await db
          .selectFrom('verification_sessions')
          .select(['id', 'status'])
          .where('id', 'in', ids.slice(start, start + IDS_PER_QUERY))
          .where('status', '!=', 'pending')
          .execute();
        for (const row of rows) completed.set(row.id, row.status as 'success' | 'failure');
      }
      return completed;
    },

    async complete(id, status, now = new Date(), subject) {
      const result = await db
        .updateTable('verification_sessions')
        .set({ status, completed_at: now.getTime(), subject: subject ?? null })
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
