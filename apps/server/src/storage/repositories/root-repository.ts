import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { RootRepository } from '../types.ts';

/**
 * The root history. A root stays acceptable while it is current and for `windowMs` after the tree
 * moved past it, so a proof made just before someone else registered still verifies; a root we
 * never had, or root 0, never does (`verifyProof` alone would accept a proof against any root). The
 * size recorded with a root gives the depth of the tree it is the root of: a proof against an older
 * root is made at that root's depth, which may be less than the current one.
 *
 * An erasure (decision 022) changes the root without changing the size, so a size may have several
 * roots, in the order they were reached: a root is superseded by the first one recorded after it,
 * at a greater size or at the same size later.
 */
export function rootRepository(db: Kysely<Database>, table: 'roots' | 'credential_roots' = 'roots'): RootRepository {
  // The credential tree's history (decision 088) has the same columns; Kysely types one table name.
  const roots = table as 'roots';
  return {
    async record(size, root, at = Date.now()) {
      await db
        .insertInto(roots)
        .values({ size, root, created_at: at })
        .onConflict((oc) => oc.columns(['size', 'root']).doNothing())
        .execute();
    },

    async standing(root, windowMs, now = new Date()) {
      if (root === '0') return undefined;
      const row = await db
        .selectFrom(roots)
        .select(['size', 'created_at'])
        .where('root', '=', root)
        .orderBy('size', 'desc')
        .executeTakeFirst();
      if (!row) return undefined;
      const size = Number(row.size);
      const reachedAt = Number(row.created_at);
      const successor = await db
        .selectFrom(roots)
        .select((eb) => eb.fn.min('created_at').as('superseded_at'))
        .where((eb) => eb.or([eb('size', '>', size), eb.and([eb('size', '=', size), eb('created_at', '>', reachedAt)])]))
        .executeTakeFirst();
      const supersededAt = successor?.superseded_at;
      const accepted = supersededAt === null || supersededAt === undefined || Number(supersededAt) > now.getTime() - windowMs;
      return { size, accepted };
    },

    async isAccepted(root, windowMs, now = new Date()) {
      return (await this.standing(root, windowMs, now))?.accepted === true;
    },

    async rootOf(size) {
      const row = await db
        .selectFrom(roots)
        .select('root')
        .where('size', '=', size)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.root;
    },

    async isRecorded(size, root) {
      const row = await db.selectFrom(roots).select('root').where('size', '=', size).where('root', '=', root).executeTakeFirst();
      return row !== undefined;
    },

    async latest() {
      const row = await db
        .selectFrom(roots)
        .select(['size', 'root'])
        .orderBy('size', 'desc')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && { size: Number(row.size), root: row.root };
    },
  };
}
