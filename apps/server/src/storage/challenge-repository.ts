import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { ChallengeRepository } from './types.ts';

/**
 * One-time challenges. Consumption is one conditional UPDATE, so of any number of concurrent
 * attempts, in any number of processes, exactly one sees a row change.
 */
export function challengeRepository(db: Kysely<Database>): ChallengeRepository {
  return {
    async issue(nonce, expiresAt) {
      await db.insertInto('challenges').values({ nonce, expires_at: expiresAt.getTime(), consumed_at: null }).execute();
    },

    async consume(nonce, now = new Date()) {
      const result = await db
        .updateTable('challenges')
        .set({ consumed_at: now.getTime() })
        .where('nonce', '=', nonce)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now.getTime())
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async purgeExpired(now = new Date()) {
      const result = await db.deleteFrom('challenges').where('expires_at', '<=', now.getTime()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
