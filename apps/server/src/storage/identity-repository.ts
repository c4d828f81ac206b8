import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { groupCommit } from './group-commit.ts';
import { retryOnContention } from './retry-on-contention.ts';
import type { Database } from './schema.ts';
import type { IdentityRecord, IdentityRepository, RegisterOutcome } from './types.ts';

/** Any constant works: every process that registers takes the same PostgreSQL advisory lock. */
export const REGISTRATION_LOCK = 0x2e701d;

/**
 * Registration computes MAX(leaf_index) + 1 and inserts in one statement. In SQLite that statement
 * runs under the database's single writer lock; in PostgreSQL, a transaction-scoped advisory lock
 * makes concurrent registrations from every process take turns, so indexes stay gapless and unique.
 * ON CONFLICT DO NOTHING turns a taken commitment, ID tag or DID into "already registered" without
 * an error, so the transaction stays usable. It would also hide a clash on leaf_index, which the
 * lock rules out; should that ever happen, it is reported, never answered as "already registered".
 */
type NewIdentity = { commitment: string; idTag: string; did: string };

export function identityRepository(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): IdentityRepository {
  const toRecord = (row: Selectable<Database['identities']>): IdentityRecord => ({
    leafIndex: Number(row.leaf_index),
    commitment: row.commitment,
    idTag: row.id_tag,
    did: row.did,
    createdAt: new Date(Number(row.created_at)),
  });

  const takeRegistrationLock = async (trx: Transaction<Database>) => {
    if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${REGISTRATION_LOCK})`.execute(trx);
  };

  /** One registration inside a transaction that holds the registration lock. */
  const registerOne = async (trx: Transaction<Database>, { commitment, idTag, did }: NewIdentity): Promise<RegisterOutcome> => {
    // `WHERE true` lets SQLite tell the upsert clause from a join constraint of INSERT … SELECT.
    const result = await sql<{ leaf_index: number }>`
      INSERT INTO identities (leaf_index, commitment, id_tag, did, created_at)
      SELECT COALESCE(MAX(leaf_index), -1) + 1, CAST(${commitment} AS TEXT), CAST(${idTag} AS TEXT), CAST(${did} AS TEXT), CAST(${Date.now()} AS BIGINT)
      FROM identities WHERE true
      ON CONFLICT DO NOTHING
      RETURNING leaf_index`.execute(trx);
    const inserted = result.rows[0];
    if (inserted) return { inserted: true, leafIndex: Number(inserted.leaf_index) };

    const holder = await trx
      .selectFrom('identities')
      .select('leaf_index')
      .where((eb) => eb.or([eb('commitment', '=', commitment), eb('id_tag', '=', idTag), eb('did', '=', did)]))
      .executeTakeFirst();
    if (!holder) throw new Error('Registration inserted nothing, yet no identity holds its commitment, ID tag or DID');
    return { inserted: false };
  };

  // Concurrent registrations share a transaction (group commit): one lock, one commit, one fsync.
  const register = groupCommit((identities: NewIdentity[]) =>
    retryOnContention(() =>
      db.transaction().execute(async (trx) => {
        await takeRegistrationLock(trx);
        const outcomes: RegisterOutcome[] = [];
        for (const identity of identities) outcomes.push(await registerOne(trx, identity));
        return outcomes;
      }),
    ),
  );

  return {
    register,

    async importBatch(identities) {
      if (identities.length === 0) return;
      const now = Date.now();
      await retryOnContention(() =>
        db.transaction().execute(async (trx) => {
          await takeRegistrationLock(trx);
          const last = await trx
            .selectFrom('identities')
            .select((eb) => eb.fn.max('leaf_index').as('max'))
            .executeTakeFirst();
          const first = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
          // SQLite allows 32,766 bound parameters a statement: 5 columns × 1,000 rows stays well below.
          for (let offset = 0; offset < identities.length; offset += 1000) {
            const rows = identities.slice(offset, offset + 1000).map((identity, i) => ({
              leaf_index: first + offset + i,
              commitment: identity.commitment,
              id_tag: identity.idTag,
              did: identity.did,
              created_at: now,
            }));
            await trx.insertInto('identities').values(rows).execute();
          }
        }),
      );
    },

    async findByCommitment(commitment) {
      const row = await db.selectFrom('identities').selectAll().where('commitment', '=', commitment).executeTakeFirst();
      return row && toRecord(row);
    },

    async findByDid(did) {
      const row = await db.selectFrom('identities').selectAll().where('did', '=', did).executeTakeFirst();
      return row && toRecord(row);
    },

    async commitmentsFrom(fromIndex, limit = 10_000) {
      const rows = await db
        .selectFrom('identities')
        .select('commitment')
        .where('leaf_index', '>=', fromIndex)
        .orderBy('leaf_index')
        .limit(limit)
        .execute();
      return rows.map((r) => r.commitment);
    },

    async count() {
      const row = await db
        .selectFrom('identities')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    // Leaf indexes are gapless from 0: the last one plus one is a lookup at the end of the primary
    // key, where COUNT(*) walks every row (seconds at ten million, on every start).
    async leafCount() {
      const row = await db
        .selectFrom('identities')
        .select((eb) => eb.fn.max('leaf_index').as('max'))
        .executeTakeFirst();
      return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
    },
  };
}
