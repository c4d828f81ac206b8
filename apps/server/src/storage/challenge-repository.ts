import type { Kysely } from 'kysely';
import { groupCommit } from './group-commit.ts';
import { retryOnContention } from './retry-on-contention.ts';
import type { Database } from './schema.ts';
import type { ChallengeRepository } from './types.ts';

/**
 * One-time challenges. Consumption is one conditional UPDATE, so of any number of concurrent
 * attempts, in any number of processes, exactly one sees a row change (a second attempt in the same
 * transaction sees the first one's change too). Concurrent issues and consumptions each share a
 * transaction (group commit), so a burst of verifications costs a few fsyncs, not one each.
 */
export function challengeRepository(db: Kysely<Database>): ChallengeRepository {
  const issue = groupCommit((challenges: Array<{ nonce: string; expiresAt: Date }>) =>
    retryOnContention(() =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('challenges')
          .values(challenges.map(({ nonce, expiresAt }) => ({ nonce, expires_at: expiresAt.getTime(), consumed_at: null })))
          .execute();
        return challenges.map(() => undefined);
      }),
    ),
  );

  // Two processes consuming overlapping batches in another order can deadlock in PostgreSQL; the
  // loser is retried.
  const consume = groupCommit((attempts: Array<{ nonce: string; now: Date }>) =>
    retryOnContention(() =>
      db.transaction().execute(async (trx) => {
        const consumed: boolean[] = [];
        for (const { nonce, now } of attempts) {
          const result = await trx
            .updateTable('challenges')
            .set({ consumed_at: now.getTime() })
            .where('nonce', '=', nonce)
            .where('consumed_at', 'is', null)
            .where('expires_at', '>', now.getTime())
            .executeTakeFirst();
          consumed.push(result.numUpdatedRows === 1n);
        }
        return consumed;
      }),
    ),
  );

  return {
    issue: (nonce, expiresAt) => issue({ nonce, expiresAt }),

    consume: (nonce, now = new Date()) => consume({ nonce, now }),

    async purgeExpired(now = new Date()) {
      const result = await db.deleteFrom('challenges').where('expires_at', '<=', now.getTime()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
