import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { AttemptRepository, ThrottleRule } from '../types.ts';

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

    async uncountInWindow(key, windowStart) {
      await db
        .updateTable('attempt_counters')
        .set({ count: sql<number>`count - 1` })
        .where('key', '=', key)
        .where('started_at', '=', windowStart)
        .where('count', '>', 0)
        .execute();
    },

    // The WHERE of ON CONFLICT DO UPDATE is checked against the row as locked by this statement (in
    // PostgreSQL, against the newest version once a concurrent upsert commits), so the check and
    // the increment are one step: the 41st of 40 concurrent reservations sees the 40 before it.
    async reserve(key, cost, now, rule) {
      const forgotten = sql<boolean>`attempt_counters.last_at <= ${now - rule.forgetAfterMs}`;
      const row = await db
        .insertInto('attempt_counters')
        .values({ key, count: cost, started_at: now, last_at: now })
        .onConflict((conflict) =>
          conflict
            .column('key')
            .doUpdateSet({
              count: sql<number>`CASE WHEN ${forgotten} THEN ${cost} ELSE attempt_counters.count + ${cost} END`,
              started_at: sql<number>`CASE WHEN ${forgotten} THEN ${now} ELSE attempt_counters.started_at END`,
              last_at: now,
            })
            .where(
              sql<boolean>`${forgotten} OR attempt_counters.count < ${rule.allowance} OR attempt_counters.last_at + ${waitAfter(sql`attempt_counters.count`, rule)} <= ${now}`,
            ),
        )
        .returning('count')
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.count);
    },

    async release(key, cost) {
      await db
        .updateTable('attempt_counters')
        .set({ count: sql<number>`CASE WHEN count > ${cost} THEN count - ${cost} ELSE 0 END` })
        .where('key', '=', key)
        .execute();
    },

    async attempts(key, now, forgetAfterMs) {
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

/**
 * `ThrottleRule`'s wait after `count` attempts, in SQL both dialects read alike: 0 below the
 * allowance, then delayMs × 2^(count − allowance) as a shift (neither has a portable power
 * function), capped at maxDelayMs. Must equal `GuessBudget.waitAfter`.
 */
function waitAfter(count: RawBuilder<unknown>, rule: ThrottleRule): RawBuilder<number> {
  const beyond = sql`(${count} - CAST(${rule.allowance} AS INTEGER))`;
  const doubled = sql`(CAST(${rule.delayMs} AS BIGINT) << ${beyond})`;
  return sql<number>`(CASE WHEN ${beyond} < 0 THEN 0 WHEN ${beyond} >= 30 OR ${doubled} >= ${rule.maxDelayMs} THEN CAST(${rule.maxDelayMs} AS BIGINT) ELSE ${doubled} END)`;
}
