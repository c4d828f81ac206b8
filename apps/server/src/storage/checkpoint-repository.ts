import { sql, type Kysely } from 'kysely';
import { ERASURE_LOCK } from './identity-repository.ts';
import type { Database } from './schema.ts';
import type { CheckpointRepository } from './types.ts';

/**
 * Tree snapshots; several processes may save the same size, and only the newest few are kept.
 *
 * A snapshot is saved only if no leaf was erased since the tree it was taken from caught up
 * (`erasuresSeen`, decision 022): an erasure deletes every snapshot holding its leaf, and a process
 * that had not caught up yet must not write the leaf back. In PostgreSQL the erasure lock orders
 * the check against erasures in flight; SQLite's single writer does the same.
 */
export function checkpointRepository(db: Kysely<Database>, dialect: 'sqlite' | 'postgres' = 'sqlite'): CheckpointRepository {
  return {
    async save({ size, root, nodes }, erasuresSeen = 0) {
      await db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${ERASURE_LOCK})`.execute(trx);
        await sql`
          INSERT INTO tree_checkpoints (size, root, nodes, created_at)
          SELECT CAST(${size} AS INTEGER), CAST(${root} AS TEXT), CAST(${nodes} AS TEXT), CAST(${Date.now()} AS BIGINT)
          WHERE NOT EXISTS (SELECT 1 FROM leaf_erasures WHERE seq > ${erasuresSeen})
          ON CONFLICT (size) DO NOTHING`.execute(trx);
      });
      const keep = await db.selectFrom('tree_checkpoints').select('size').orderBy('size', 'desc').limit(2).execute();
      const oldestKept = keep[keep.length - 1]?.size;
      if (oldestKept !== undefined) await db.deleteFrom('tree_checkpoints').where('size', '<', oldestKept).execute();
    },

    async latest(maxSize) {
      const row = await db
        .selectFrom('tree_checkpoints')
        .select(['size', 'root', 'nodes'])
        .where('size', '<=', maxSize)
        .orderBy('size', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && { size: Number(row.size), root: row.root, nodes: row.nodes };
    },
  };
}
