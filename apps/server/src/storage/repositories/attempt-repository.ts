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

    // GCRA: `last_at` is when the bucket is full again. Taking `cost` moves it `cost × refillMs` later
    // (from now, if it lay in the past), allowed while it stays within `capacity × refillMs` of now.
    // The check and the move are one upsert, as in `reserve`; a refused take writes nothing.
    async takeTokens(key, cost, now, { capacity, refillMs }) {
      const limit = now + capacity * refillMs;
      if (cost <= capacity) {
        const full = sql<number>`(CASE WHEN attempt_counters.last_at > CAST(${now} AS BIGINT) THEN attempt_counters.last_at ELSE CAST(${now} AS BIGINT) END)`;
        const moved = sql<number>`${full} + CAST(${cost * refillMs} AS BIGINT)`;
        const row = await db
          .insertInto('attempt_counters')
          .values({ key, count: 0, started_at: now, last_at: now + cost * refillMs })
          .onConflict((conflict) =>
            conflict
              .column('key')
              .doUpdateSet({ last_at: moved })
              .where(sql<boolean>`${moved} <= CAST(${limit} AS BIGINT)`),
          )
          .returning('last_at')
          .executeTakeFirst();
        if (row !== undefined) return { taken: true };
      }
      const held = await db.selectFrom('attempt_counters').select('last_at').where('key', '=', key).executeTakeFirst();
      const fullAt = Math.max(now, held ? Number(held.last_at) : now);
      return { taken: false, waitMs: Math.max(1, fullAt + cost * refillMs - limit) };
    },

    async giveBackTokens(key, cost, { refillMs }) {
      // A time in the past is a full bucket, so no give-back can raise it above `capacity`.
      await db
        .updateTable('attempt_counters')
        .set({ last_at: sql<number>`last_at - CAST(${cost * refillMs} AS BIGINT)` })
        .where('key', '=', key)
        .execute();
    },

    async openReservation(key, units, expiresAt) {
      await db.insertInto('attempt_counters').values({ key, count: units, started_at: expiresAt, last_at: expiresAt }).execute();
    },

    async drawReservation(key, cost, now) {
      const row = await db
        .updateTable('attempt_counters')
        .set({ count: sql<number>`count - ${cost}` })
        .where('key', '=', key)
        .where('count', '>=', cost)
        .where('last_at', '>', now)
        .returning('count')
        .executeTakeFirst();
      return row !== undefined;
    },

    async closeReservation(key, now) {
      const row = await db.deleteFrom('attempt_counters').where('key', '=', key).returning(['count', 'last_at']).executeTakeFirst();
      return row && Number(row.last_at) > now ? Number(row.count) : 0;
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
