import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { KeyFingerprintRepository } from './types.ts';

/**
 * First writer wins: `INSERT … ON CONFLICT DO NOTHING`, then read back. Two processes that start
 * together on a new database with different keys both read the one fingerprint that was written.
 */
export function keyFingerprintRepository(db: Kysely<Database>): KeyFingerprintRepository {
  return {
    async adopt(purpose, fingerprint, now = Date.now()) {
      await db
        .insertInto('key_fingerprints')
        .values({ purpose, fingerprint, recorded_at: now })
        .onConflict((conflict) => conflict.column('purpose').doNothing())
        .execute();
      const row = await db.selectFrom('key_fingerprints').select('fingerprint').where('purpose', '=', purpose).executeTakeFirstOrThrow();
      return row.fingerprint;
    },
  };
}
