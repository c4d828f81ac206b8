import { sql, type Kysely } from 'kysely';
import { ERASURE_LOCK } from './identity-rows.ts';
import type { Database } from '../schema.ts';
import type { CheckpointRepository } from '../types.ts';

/**
 * Tree snapshots; several processes may save the same size, and only the newest few are kept. A
 * paged checkpoint's pages are written first, each batch in its own short transaction (a whole
 * checkpoint in one would hold SQLite's write lock, and registrations, for seconds), and its row
 * last, so a checkpoint is never seen half-written (decision 025).
 *
 * A snapshot is recorded only if no leaf was erased since the tree it was taken from caught up
 * (`erasuresSeen`, decision 022): an erasure deletes every snapshot holding its leaf, pages
 * included, and a process that had not caught up yet must not write the leaf back. A refused
 * snapshot's pages go in the same transaction. In PostgreSQL the erasure lock orders the check
 * against erasures in flight; SQLite's single writer does the same. Pages keyed by a (size, root)
 * that no row records (a save that died) are removed by the next save that reaches their size.
 */
export function checkpointRepository(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres' = 'sqlite',
  tables: CheckpointTables = MEMBER_TREE_CHECKPOINTS,
): CheckpointRepository {
  // The credential tree's tables (decision 088) have the same columns; Kysely types one set of names.
  const checkpoints = tables.checkpoints as 'tree_checkpoints';
  const pagesTable = tables.pages as 'tree_checkpoint_pages';
  return {
    async save({ size, root, nodes }, erasuresSeen = 0) {
      const recorded = await db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${ERASURE_LOCK})`.execute(trx);
        await sql`
          INSERT INTO ${sql.table(tables.checkpoints)} (size, root, nodes, created_at)
          SELECT CAST(${size} AS INTEGER), CAST(${root} AS TEXT), CAST(${nodes} AS TEXT), CAST(${Date.now()} AS BIGINT)
          WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(tables.erasures)} WHERE seq > ${erasuresSeen})
          ON CONFLICT (size) DO NOTHING`.execute(trx);
        const row = await trx.selectFrom(checkpoints).select('root').where('size', '=', size).executeTakeFirst();
        if (row?.root === root) return true;
        // Refused (an erasure since) or another tree of this size recorded first: these pages are orphans.
        await trx.deleteFrom(pagesTable).where('size', '=', size).where('root', '=', root).execute();
        return false;
      });
      const keep = await db.selectFrom(checkpoints).select('size').orderBy('size', 'desc').limit(2).execute();
      const oldestKept = keep[keep.length - 1]?.size;
      if (oldestKept !== undefined) {
        await db.deleteFrom(checkpoints).where('size', '<', oldestKept).execute();
        await db
          .deleteFrom(pagesTable)
          .where((eb) =>
            eb.or([
              eb('size', '<', oldestKept),
              eb.and([
                eb('size', '<=', size),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom(`${checkpoints} as c` as 'tree_checkpoints')
                      .select(sql<number>`c.size`.as('size'))
                      .where(sql<boolean>`c.size = ${sql.table(tables.pages)}.size AND c.root = ${sql.table(tables.pages)}.root`),
                  ),
                ),
              ]),
            ]),
          )
          .execute();
      }
      return recorded;
    },

    async latest(maxSize) {
      const row = await db
        .selectFrom(checkpoints)
        .select(['size', 'root', 'nodes'])
        .where('size', '<=', maxSize)
        .orderBy('size', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && { size: Number(row.size), root: row.root, nodes: row.nodes };
    },

    async savePages(size, root, first, pages) {
      if (pages.length === 0) return;
      await db
        .insertInto(pagesTable)
        .values(pages.map((bytes, i) => ({ size, root, page: first + i, bytes })))
        .onConflict((oc) => oc.columns(['size', 'root', 'page']).doNothing())
        .execute();
    },

    async pages(size, root, first, count) {
      const rows = await db
        .selectFrom(pagesTable)
        .select(['page', 'bytes'])
        .where('size', '=', size)
        .where('root', '=', root)
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

    async discardPages(size, root) {
      await db.deleteFrom(pagesTable).where('size', '=', size).where('root', '=', root).execute();
    },
  };
}

/** Where a tree's checkpoints, their pages and the erasure log a save is checked against live. */
export interface CheckpointTables {
  checkpoints: 'tree_checkpoints' | 'credential_tree_checkpoints';
  pages: 'tree_checkpoint_pages' | 'credential_tree_checkpoint_pages';
  erasures: 'leaf_erasures' | 'credential_leaf_erasures';
}

export const MEMBER_TREE_CHECKPOINTS: CheckpointTables = {
  checkpoints: 'tree_checkpoints',
  pages: 'tree_checkpoint_pages',
  erasures: 'leaf_erasures',
};

/** The credential tree's (decision 088). */
export const CREDENTIAL_TREE_CHECKPOINTS: CheckpointTables = {
  checkpoints: 'credential_tree_checkpoints',
  pages: 'credential_tree_checkpoint_pages',
  erasures: 'credential_leaf_erasures',
};
