import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.ts';
import type { NoisyLocker, NoisyLockerRepository } from '../types.ts';

/**
 * Keys a statement names at most: SQLite allows 32,766 bound values, PostgreSQL 65,535, and a
 * registration has some 20,000 lockers of two values each.
 */
const CHUNK = 8000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const asBytes = (value: Uint8Array) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength);

/** The stored lockers among `keys`, in chunks, inside `db` (a transaction, or the database). */
async function storedAmong(db: Kysely<Database> | Transaction<Database>, keys: readonly Uint8Array[]): Promise<NoisyLocker[]> {
  const found: NoisyLocker[] = [];
  for (const chunk of chunks(keys, CHUNK)) {
    const rows = await db.selectFrom('noisy_lockers').select(['key', 'seal']).where('key', 'in', chunk).execute();
    for (const row of rows) found.push({ key: asBytes(row.key), seal: asBytes(row.seal) });
  }
  return found;
}

/**
 * Inside a registration's transaction, which holds the registration lock (identity-repository.ts):
 * true when any of these lockers' keys is stored, which is a second registration of an eye already
 * registered (its reading repeats some of its lockers exactly), so nothing is written.
 */
export async function lockersTaken(trx: Transaction<Database>, lockers: readonly NoisyLocker[]): Promise<boolean> {
  for (const chunk of chunks(lockers, CHUNK)) {
    const hit = await trx
      .selectFrom('noisy_lockers')
      .select('key')
      .where(
        'key',
        'in',
        chunk.map((locker) => locker.key),
      )
      .limit(1)
      .executeTakeFirst();
    if (hit) return true;
  }
  return false;
}

/** Inside the same transaction, once the identity is inserted: its lockers, committed with it or not at all. */
export async function storeLockers(trx: Transaction<Database>, lockers: readonly NoisyLocker[]): Promise<void> {
  for (const chunk of chunks(lockers, CHUNK / 2))
    await trx
      .insertInto('noisy_lockers')
      .values(chunk.map(({ key, seal }) => ({ key, seal })))
      .execute();
}

/** The lockers as a verification reads them. */
export function noisyLockerRepository(db: Kysely<Database>): NoisyLockerRepository {
  return {
    find: (keys) => storedAmong(db, keys),
  };
}
