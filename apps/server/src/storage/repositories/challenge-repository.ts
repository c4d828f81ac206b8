import type { Kysely } from 'kysely';
import { groupCommit } from '../group-commit.ts';
import { retryOnContention } from '../retry-on-contention.ts';
import type { Database } from '../schema.ts';
import type { ChallengeRepository } from '../types.ts';

/**
 * One-time challenges. Consumption is one conditional UPDATE, so of any number of concurrent
 * attempts, in any number of processes, exactly one sees a row change. Concurrent issues and
 * consumptions each share a statement or a transaction (group commit), so a burst of verifications
 * costs a few fsyncs, not one each.
 */
export function challengeRepository(db: Kysely<Database>): ChallengeRepository {
  const issue = groupCommit((challenges: Array<{ nonce: string; expiresAt: Date; issuedAt: Date }>) =>
    retryOnContention(() =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('challenges')
          .values(
            challenges.map(({ nonce, expiresAt, issuedAt }) => ({
              nonce,
              expires_at: expiresAt.getTime(),
              issued_at: issuedAt.getTime(),
              consumed_at: null,
            })),
          )
          .execute();
        return challenges.map(() => undefined);
      }),
    ),
  );

  // One statement for the whole batch: atomic on its own (no BEGIN/COMMIT), so a batch costs one
  // round trip to the database thread and one fsync. It takes effect at the batch's latest `now`,
  // never more lenient on expiry than each attempt's own. A nonce twice in a batch changes one row,
  // and only its first attempt is told so. Two PostgreSQL processes consuming overlapping batches
  // lock rows in index order; a loser of any contention is retried.
  const consume = groupCommit((attempts: Array<{ nonce: string; now: Date }>) =>
    retryOnContention(async () => {
      const now = Math.max(...attempts.map((attempt) => attempt.now.getTime()));
      const rows = await db
        .updateTable('challenges')
        .set({ consumed_at: now })
        .where('nonce', 'in', [...new Set(attempts.map((attempt) => attempt.nonce))])
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('nonce')
        .execute();
      const unclaimed = new Set(rows.map((row) => row.nonce));
      return attempts.map(({ nonce }) => unclaimed.delete(nonce));
    }),
  );

  return {
    issue: (nonce, expiresAt, issuedAt = new Date()) => issue({ nonce, expiresAt, issuedAt }),

    consume: (nonce, now = new Date()) => consume({ nonce, now }),

    async isUsable(nonce, now = new Date()) {
      const row = await db
        .selectFrom('challenges')
        .select('nonce')
        .where('nonce', '=', nonce)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      return row !== undefined;
    },

    async times(nonce, now = new Date()) {
      const row = await db
        .selectFrom('challenges')
        .select(['issued_at', 'expires_at'])
        .where('nonce', '=', nonce)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      if (!row) return undefined;
      const expiresAt = new Date(Number(row.expires_at));
      return row.issued_at === null ? { expiresAt } : { issuedAt: new Date(Number(row.issued_at)), expiresAt };
    },

    async purgeExpired(now = new Date()) {
      const result = await db.deleteFrom('challenges').where('expires_at', '<=', now.getTime()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
