import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { AttemptRepository } from './types.ts';

/**
 * Attempt counters as single-row upserts (`INSERT … ON CONFLICT DO UPDATE … RETURNING`, the same SQL
 * in SQLite and PostgreSQL), so concurrent increments from any number of processes never lose one.
 */
export function attemptRepository(db: Kysely<Database>): AttemptRepository {
  return {
    async countInWindow(key, windowStart, now = Date.now()) {
      const row = await db
        .insertInto('attempt_counters')
        .values({ key, count: 1, started_at: windowStart, last_at: now })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            count: sql<number>`CASE WHEN attempt_counters.started_at = ${windowStart} THEN attempt_counters.count + 1 ELSE 1 END`,
            started_at: windowStart,
            last_at: now,
          }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async recordFailure(key, now, forgetAfterMs) {
      const row = await db
        .insertInto('attempt_counters')
        .values({ key, count: 1, started_at: now, last_at: now })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            count: sql<number>`CASE WHEN attempt_counters.last_at <= ${now - forgetAfterMs} THEN 1 ELSE attempt_counters.count + 1 END`,
            started_at: sql<number>`CASE WHEN attempt_counters.last_at <= ${now - forgetAfterMs} THEN ${now} ELSE attempt_counters.started_at END`,
            last_at: now,
          }),
        )
        .returning(['count', 'last_at'])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), lastAt: Number(row.last_at) };
    },

    async failures(key, now, forgetAfterMs) {
      const row = await db
        .selectFrom('attempt_counters')
        .select(['count', 'last_at'])
        .where('key', '=', key)
        .where('last_at', '>', now - forgetAfterMs)
        .executeTakeFirst();
      return row ? { count: Number(row.count), lastAt: Number(row.last_at) } : undefined;
    },

    async purgeIdle(before) {
      const result = await db.deleteFrom('attempt_counters').where('last_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
