import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { CredentialLeafRepository } from '../types.ts';

/**
 * The credential tree's leaves and its erasure log (migration 025, decision 088), read by every
 * process's credential tree as it catches up. They are written only inside a registration's or an
 * erasure's transaction (identity-rows.ts), never here.
 */
export function credentialLeafRepository(db: Kysely<Database>): CredentialLeafRepository {
  return {
    async leavesFrom(fromPosition, limit = 10_000) {
      const rows = await db
        .selectFrom('credential_leaves')
        .select('leaf')
        .where('position', '>=', fromPosition)
        .orderBy('position')
        .limit(limit)
        .execute();
      return rows.map((row) => row.leaf);
    },

    async positionsOf(leafIndexes) {
      const found: Array<{ position: number; leafIndex: number }> = [];
      const wanted = [...new Set(leafIndexes)];
      // In slices: SQLite caps the parameters of one statement, and a bucket of a small group is all of it.
      for (let i = 0; i < wanted.length; i += 500) {
        const rows = await db
          .selectFrom('credential_leaves')
          .select(['position', 'leaf_index'])
          .where('leaf_index', 'in', wanted.slice(i, i + 500))
          .execute();
        for (const row of rows) found.push({ position: Number(row.position), leafIndex: Number(row.leaf_index) });
      }
      return found.sort((a, b) => a.position - b.position);
    },

    async erasuresAfter(seq) {
      const rows = await db
        .selectFrom('credential_leaf_erasures')
        .select(['seq', 'position'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .execute();
      return rows.map((row) => ({ seq: Number(row.seq), position: Number(row.position) }));
    },

    async changeMarks() {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('credential_leaves')
            .select((sub) => sub.fn.max('position').as('max'))
            .as('last_leaf'),
          eb
            .selectFrom('credential_leaf_erasures')
            .select((sub) => sub.fn.max('seq').as('max'))
            .as('last_erasure'),
        ])
        .executeTakeFirstOrThrow();
      const last = (value: string | number | bigint | null | undefined) => (value === null || value === undefined ? -1 : Number(value));
      return { leafCount: last(row.last_leaf) + 1, lastErasure: Math.max(0, last(row.last_erasure)) };
    },
  };
}
