import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { KeyFingerprintRepository } from '../types.ts';

/**
 * First writer wins: `INSERT … ON CONFLICT DO NOTHING`, then read back. Two processes that start
 * together on a new database with different keys both read the one fingerprint that was written.
 * A database that has one is only read, so a start-up writes nothing it does not need to.
 */
export function keyFingerprintRepository(db: Kysely<Database>): KeyFingerprintRepository {
  const recorded = async (purpose: string) =>
    (await db.selectFrom('key_fingerprints').select('fingerprint').where('purpose', '=', purpose).executeTakeFirst())?.fingerprint;
  return {
    recorded,
    async adopt(purpose, fingerprint, now = Date.now()) {
      const existing = await recorded(purpose);
      if (existing !== undefined) return existing;
      await db
        .insertInto('key_fingerprints')
        .values({ purpose, fingerprint, recorded_at: now })
        .onConflict((conflict) => conflict.column('purpose').doNothing())
        .execute();
      const written = await recorded(purpose);
      if (written === undefined) throw new Error(`No ${purpose} key fingerprint after recording one`);
      return written;
    },
  };
}
