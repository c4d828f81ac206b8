import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { CheckpointRepository } from './types.ts';

/** Tree snapshots; several processes may save the same size, and only the newest few are kept. */
export function checkpointRepository(db: Kysely<Database>): CheckpointRepository {
  return {
    async save({ size, root, nodes }) {
      await db
        .insertInto('tree_checkpoints')
        .values({ size, root, nodes, created_at: Date.now() })
        .onConflict((oc) => oc.column('size').doNothing())
        .execute();
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
