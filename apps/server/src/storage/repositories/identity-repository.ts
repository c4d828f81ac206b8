import type { Kysely, Selectable, Transaction } from 'kysely';
import { ERASURE_TABLES, freedBytesScrubber, type ScrubMark } from '../freed-bytes-scrubber.ts';
import { groupCommit } from '../group-commit.ts';
import { lockersTaken, storeLockers } from './noisy-locker-repository.ts';
import { retryOnContention } from '../retry-on-contention.ts';
import type { Database } from '../schema.ts';
import type { IdentityRecord, IdentityRepository, MoveOutcome, NewIdentity, RegisterOutcome } from '../types.ts';
import {
  didHash,
  eraseRow,
  insertRow,
  recordQueries,
  rowHolding,
  takeErasureLocks,
  takeRegistrationLock,
  type HeldRow,
} from './identity-rows.ts';

/**
 * Registration computes MAX(leaf_index) + 1 and inserts in one statement. In SQLite that statement
 * runs under the database's single writer lock; in PostgreSQL, a transaction-scoped advisory lock
 * makes concurrent registrations from every process take turns, so indexes stay gapless and unique.
 * ON CONFLICT DO NOTHING turns a taken commitment, ID tag or DID into "already registered" without
 * an error, so the transaction stays usable. It would also hide a clash on leaf_index, which the
 * lock rules out; should that ever happen, it is reported, never answered as "already registered".
 */
export function identityRepository(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): IdentityRepository {
  // Only rows found by a commitment or DID are turned into records: never an erased one (all NULL).
  const toRecord = (row: Selectable<Database['identities']>): IdentityRecord => ({
    leafIndex: Number(row.leaf_index),
    commitment: row.commitment!,
    idTag: row.id_tag!,
    did: row.did!,
    createdAt: new Date(Number(row.created_at)),
  });

  /** One registration inside a transaction that holds the registration lock. */
  const registerOne = async (
    trx: Transaction<Database>,
    { commitment, idTag, did, queries, lockers, credentialLeaf }: NewIdentity,
  ): Promise<RegisterOutcome> => {
    if (queries && !(await recordQueries(trx, queries))) return { inserted: false, reusedQuery: true };
    // A noisy biometric (decision 084): a reading that repeats a stored locker is of an eye registered.
    if (lockers && (await lockersTaken(trx, lockers))) return { inserted: false };
    const leafIndex = await insertRow(trx, { commitment, idTag, did, ...(credentialLeaf === undefined ? {} : { credentialLeaf }) });
    if (leafIndex !== undefined) {
      if (lockers) await storeLockers(trx, lockers);
      return { inserted: true, leafIndex };
    }

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
        await takeRegistrationLock(trx, dialect);
        const outcomes: RegisterOutcome[] = [];
        for (const identity of identities) outcomes.push(await registerOne(trx, identity));
        return outcomes;
      }),
    ),
  );

  // How far erasures were scrubbed, in the database (decision 053): a scrub a crash cut off runs at start.
  const scrubbedUpTo = async () =>
    Number((await db.selectFrom('scrub_marks').select('seq').where('name', '=', 'erasures').executeTakeFirst())?.seq ?? 0);
  const erasureMark: ScrubMark = {
    covered: async () =>
      Number(
        (
          await db
            .selectFrom('leaf_erasures')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .executeTakeFirst()
        )?.seq ?? 0,
      ),
    scrubbed: async (covered) => {
      await db
        .insertInto('scrub_marks')
        .values({ name: 'erasures', seq: covered })
        .onConflict((oc) => oc.column('name').doUpdateSet({ seq: covered }).where('scrub_marks.seq', '<', covered))
        .execute();
    },
  };
  const scrubErased = freedBytesScrubber(db, dialect, ERASURE_TABLES, erasureMark);

  return {
    register,

    async importBatch(identities) {
      if (identities.length === 0) return;
      const now = Date.now();
      await retryOnContention(() =>
        db.transaction().execute(async (trx) => {
          await takeRegistrationLock(trx, dialect);
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

    async holdsAnyCommitment(commitments) {
      if (commitments.length === 0) return false;
      const row = await db
        .selectFrom('identities')
        .select('leaf_index')
        .where('commitment', 'in', [...commitments])
        .executeTakeFirst();
      return row !== undefined;
    },

    // Both columns are UNIQUE, so each side of the OR is an index lookup.
    async holdsCommitmentOrTag({ commitment, idTag }) {
      const row = await db
        .selectFrom('identities')
        .select('leaf_index')
        .where((eb) => eb.or([eb('commitment', '=', commitment), eb('id_tag', '=', idTag)]))
        .executeTakeFirst();
      return row !== undefined;
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
      // An erased leaf is zero in the tree (LeanIMT update), so other members' paths stay valid.
      return rows.map((r) => r.commitment ?? '0');
    },

    async erase(identities, require = 'every') {
      return retryOnContention(() =>
        db.transaction().execute(async (trx) => {
          await takeErasureLocks(trx, dialect);
          const rows: HeldRow[] = [];
          for (const identity of identities) {
            const row = await rowHolding(trx, identity);
            if (row) rows.push(row);
            else if (require === 'every') return false;
          }
          if (rows.length === 0) return false;
          for (const row of rows) await eraseRow(trx, row);
          return true;
        }),
      );
    },

    async moveFromV2({ from, to, evict }) {
      return retryOnContention(() =>
        db.transaction().execute(async (trx): Promise<MoveOutcome> => {
          await takeErasureLocks(trx, dialect);
          if (to.queries && !(await recordQueries(trx, to.queries))) return { moved: false, reason: 'reused-query' };
          const v2 = await rowHolding(trx, from);
          if (!v2) return { moved: false, reason: 'no-v2-identity' };
          // Whoever holds the new values: the person's own v3 row (all three values, made through the
          // zero-knowledge window of decision 056), or someone else's registration under one of them.
          const holders = await trx
            .selectFrom('identities')
            .select(['leaf_index', 'commitment', 'id_tag', 'did'])
            .where((eb) => eb.or([eb('commitment', '=', to.commitment), eb('id_tag', '=', to.idTag), eb('did', '=', to.did)]))
            .execute();
          const own = holders.find((row) => row.commitment === to.commitment && row.id_tag === to.idTag && row.did === to.did);
          const others = holders.filter((row) => row !== own);
          if (others.length > 0 && !evict) return { moved: false, reason: 'would-evict' };
          for (const row of others) await eraseRow(trx, { leafIndex: Number(row.leaf_index), commitment: row.commitment!, did: row.did! });
          await eraseRow(trx, v2);
          if (own) return { moved: true, leafIndex: Number(own.leaf_index), replacedDid: v2.did, evicted: others.length };
          const leafIndex = await insertRow(trx, to);
          if (leafIndex === undefined) throw new Error('A move inserted nothing, though every holder of its values was erased');
          return { moved: true, leafIndex, replacedDid: v2.did, evicted: others.length };
        }),
      );
    },

    scrubErased,

    async scrubPendingErasures() {
      const [last, scrubbed] = await Promise.all([erasureMark.covered(), scrubbedUpTo()]);
      if (last > scrubbed) await scrubErased();
    },

    async erasuresAfter(seq) {
      const rows = await db.selectFrom('leaf_erasures').select(['seq', 'leaf_index']).where('seq', '>', seq).orderBy('seq').execute();
      return rows.map((r) => ({ seq: Number(r.seq), leafIndex: Number(r.leaf_index) }));
    },

    async isDeactivated(did) {
      const row = await db.selectFrom('deactivated_dids').select('did_hash').where('did_hash', '=', didHash(did)).executeTakeFirst();
      return row !== undefined;
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
      return countAfter(row?.max);
    },

    async changeMarks() {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('identities')
            .select((sub) => sub.fn.max('leaf_index').as('max'))
            .as('last_leaf'),
          eb
            .selectFrom('leaf_erasures')
            .select((sub) => sub.fn.max('seq').as('max'))
            .as('last_erasure'),
        ])
        .executeTakeFirstOrThrow();
      return {
        leafCount: countAfter(row.last_leaf),
        lastErasure: row.last_erasure === null || row.last_erasure === undefined ? 0 : Number(row.last_erasure),
      };
    },
  };
}

/** How many gapless indexes from 0 end at `last` (a MAX, NULL on an empty table; a string from PostgreSQL's BIGINT). */
const countAfter = (last: string | number | bigint | null | undefined) => (last === null || last === undefined ? 0 : Number(last) + 1);
