import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { CheckpointRepository } from './types.ts';

/**
 * Tree snapshots; several processes may save the same size, and only the newest few are kept. A
 * paged checkpoint's pages are written first, each batch in its own short transaction (a whole
 * checkpoint in one would hold SQLite's write lock, and registrations, for seconds), and its row
 * last, so a checkpoint is never seen half-written. Pages of a save that died are removed once a
 * newer checkpoint passes them.
 */
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
      if (oldestKept !== undefined) {
        await db.deleteFrom('tree_checkpoints').where('size', '<', oldestKept).execute();
        await db.deleteFrom('tree_checkpoint_pages').where('size', '<', oldestKept).execute();
      }
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

    async savePages(size, first, pages) {
      if (pages.length === 0) return;
      await db
        .insertInto('tree_checkpoint_pages')
        .values(pages.map((bytes, i) => ({ size, page: first + i, bytes })))
        .onConflict((oc) => oc.columns(['size', 'page']).doNothing())
        .execute();
    },

    async pages(size, first, count) {
      const rows = await db
        .selectFrom('tree_checkpoint_pages')
        .select(['page', 'bytes'])
        .where('size', '=', size)
        .where('page', '>=', first)
        .where('page', '<', first + count)
        .orderBy('page')
        .execute();
      // A gap would shift every page after it: return only the run that starts at `first`.
      const run: Uint8Array[] = [];
      for (const row of rows) {
        if (Number(row.page) !== first + run.length) break;
        run.push(row.bytes);
      }
      return run;
    },
  };
}
