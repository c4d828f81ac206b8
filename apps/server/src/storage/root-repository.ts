import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { RootRepository } from './types.ts';

/**
 * The root history. A root stays acceptable while it is current and for `windowMs` after the tree
 * moved past it, so a proof made just before someone else registered still verifies; a root we
 * never had, or root 0, never does (`verifyProof` alone would accept a proof against any root).
 */
export function rootRepository(db: Kysely<Database>): RootRepository {
  return {
    async record(size, root, at = Date.now()) {
      await db
        .insertInto('roots')
        .values({ size, root, created_at: at })
        .onConflict((oc) => oc.column('size').doNothing())
        .execute();
    },

    async isAccepted(root, windowMs, now = new Date()) {
      if (root === '0') return false;
      const row = await db.selectFrom('roots').select('size').where('root', '=', root).orderBy('size', 'desc').executeTakeFirst();
      if (!row) return false;
      const successor = await db
        .selectFrom('roots')
        .select((eb) => eb.fn.min('created_at').as('superseded_at'))
        .where('size', '>', row.size)
        .executeTakeFirst();
      const supersededAt = successor?.superseded_at;
      if (supersededAt === null || supersededAt === undefined) return true;
      return Number(supersededAt) > now.getTime() - windowMs;
    },

    async rootOf(size) {
      const row = await db.selectFrom('roots').select('root').where('size', '=', size).executeTakeFirst();
      return row?.root;
    },

    async latest() {
      const row = await db.selectFrom('roots').select(['size', 'root']).orderBy('size', 'desc').limit(1).executeTakeFirst();
      return row && { size: Number(row.size), root: row.root };
    },
  };
}
