import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.ts';
import type { NewIdentity } from '../types.ts';

// The row-level steps of the identities table that registrations, erasures and moves from v2 share,
// each inside the caller's transaction: the locks that order them, the insert at the next gapless
// leaf, and the erasure of one row.

type Dialect = 'sqlite' | 'postgres';
export type HeldRow = { leafIndex: number; commitment: string; did: string };

/** Any constant works: every process that registers takes the same PostgreSQL advisory lock. */
export const REGISTRATION_LOCK = 0x2e701d;
/** Taken by erasures (after the registration lock) and by checkpoint saves, never by registrations. */
export const ERASURE_LOCK = 0x2e701e;

export async function takeRegistrationLock(trx: Transaction<Database>, dialect: Dialect) {
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${REGISTRATION_LOCK})`.execute(trx);
}

/**
 * Records a v3 registration's blinded points (decision 056), or none of them when any was recorded
 * before, or the two are one point: false then. Inside the group commit's transaction, so what
 * this registration wrote is taken back by hand rather than by rolling back the others' work.
 */
export async function recordQueries(trx: Transaction<Database>, points: string[]): Promise<boolean> {
  if (new Set(points).size !== points.length) return false;
  const recorded = await trx
    .insertInto('registration_queries')
    .values(points.map((point) => ({ point, created_at: Date.now() })))
    .onConflict((oc) => oc.column('point').doNothing())
    .returning('point')
    .execute();
  if (recorded.length === points.length) return true;
  const mine = recorded.map((row) => row.point);
  if (mine.length > 0) await trx.deleteFrom('registration_queries').where('point', 'in', mine).execute();
  return false;
}

/**
 * Inserts at the next gapless leaf index, under the registration lock; undefined when a commitment,
 * ID tag or DID is taken. A DID erased before is active again (decision 022).
 */
export async function insertRow(
  trx: Transaction<Database>,
  { commitment, idTag, did, credentialLeaf }: NewIdentity,
): Promise<number | undefined> {
  // `WHERE true` lets SQLite tell the upsert clause from a join constraint of INSERT … SELECT.
  const result = await sql<{ leaf_index: number }>`
    INSERT INTO identities (leaf_index, commitment, id_tag, did, created_at)
    SELECT COALESCE(MAX(leaf_index), -1) + 1, CAST(${commitment} AS TEXT), CAST(${idTag} AS TEXT), CAST(${did} AS TEXT), CAST(${Date.now()} AS BIGINT)
    FROM identities WHERE true
    ON CONFLICT DO NOTHING
    RETURNING leaf_index`.execute(trx);
  const inserted = result.rows[0];
  if (!inserted) return undefined;
  await trx.deleteFrom('deactivated_dids').where('did_hash', '=', didHash(did)).execute();
  const leafIndex = Number(inserted.leaf_index);
  if (credentialLeaf !== undefined) await insertCredentialLeaf(trx, credentialLeaf, leafIndex);
  return leafIndex;
}

/**
 * The identity's credential leaf (decision 088) at the next dense position of the credential tree,
 * in the identity's transaction and under the same registration lock, so positions are gapless.
 */
async function insertCredentialLeaf(trx: Transaction<Database>, leaf: string, leafIndex: number) {
  await sql`
    INSERT INTO credential_leaves (position, leaf, leaf_index)
    SELECT COALESCE(MAX(position), -1) + 1, CAST(${leaf} AS TEXT), CAST(${leafIndex} AS INTEGER) FROM credential_leaves`.execute(trx);
}

// The registration lock orders erasures with registrations, so `seq` is gapless like leaf_index.
export async function takeErasureLocks(trx: Transaction<Database>, dialect: Dialect) {
  await takeRegistrationLock(trx, dialect);
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${ERASURE_LOCK})`.execute(trx);
}

/**
 * The row that holds this commitment and this ID tag together: the person's, whatever DID it was
 * stored with. The two are what a person proves with their texts; the DID a zero-knowledge
 * registrant names is bound by no proof of those texts (decision 073), so it decides nothing here.
 */
export async function rowHolding(trx: Transaction<Database>, { commitment, idTag }: { commitment: string; idTag: string }) {
  const row = await trx
    .selectFrom('identities')
    .select(['leaf_index', 'did'])
    .where('commitment', '=', commitment)
    .where('id_tag', '=', idTag)
    .executeTakeFirst();
  return row && { leafIndex: Number(row.leaf_index), commitment, did: row.did! };
}

/**
 * Erases one row inside a transaction that holds the erasure locks (decision 022): its values
 * become NULL, its leaf is logged for every process's tree, its stored DID tombstoned, checkpoints
 * holding the leaf deleted, and a root equal to its commitment (a one-leaf tree's) forgotten.
 */
export async function eraseRow(trx: Transaction<Database>, { leafIndex, commitment, did }: HeldRow) {
  await trx
    .updateTable('identities')
    .set({ commitment: null, id_tag: null, did: null, created_at: 0 })
    .where('leaf_index', '=', leafIndex)
    .execute();
  await sql`
    INSERT INTO leaf_erasures (seq, leaf_index)
    SELECT COALESCE(MAX(seq), 0) + 1, CAST(${leafIndex} AS INTEGER) FROM leaf_erasures`.execute(trx);
  await trx
    .insertInto('deactivated_dids')
    .values({ did_hash: didHash(did) })
    .onConflict((oc) => oc.column('did_hash').doNothing())
    .execute();
  // Every checkpoint that holds the leaf goes with it; the next catch-up saves a new one.
  await trx.deleteFrom('tree_checkpoints').where('size', '>', leafIndex).execute();
  await trx.deleteFrom('tree_checkpoint_pages').where('size', '>', leafIndex).execute();
  // A LeanIMT of one leaf has that leaf as its root: the root history held the commitment itself
  // (found by the erasure test's database scan). No proof can be made against it any more.
  await trx.deleteFrom('roots').where('root', '=', commitment).execute();
  await eraseCredentialLeaf(trx, leafIndex);
}

/**
 * The identity's credential leaf, if it has one, becomes '0' and its position is logged for every
 * process's credential tree (decision 088), in the erasure's transaction: the person can no longer
 * prove a credential once the trees catch up. A one-leaf credential tree's root was the leaf itself.
 */
async function eraseCredentialLeaf(trx: Transaction<Database>, leafIndex: number) {
  const held = await trx
    .selectFrom('credential_leaves')
    .select(['position', 'leaf'])
    .where('leaf_index', '=', leafIndex)
    .where('leaf', '!=', '0')
    .executeTakeFirst();
  if (!held) return;
  await trx.updateTable('credential_leaves').set({ leaf: '0' }).where('position', '=', held.position).execute();
  await sql`
    INSERT INTO credential_leaf_erasures (seq, position)
    SELECT COALESCE(MAX(seq), 0) + 1, CAST(${held.position} AS INTEGER) FROM credential_leaf_erasures`.execute(trx);
  await trx.deleteFrom('credential_roots').where('root', '=', held.leaf).execute();
  // Every credential checkpoint that holds the leaf goes with it, as for the member tree.
  await trx.deleteFrom('credential_tree_checkpoints').where('size', '>', held.position).execute();
  await trx.deleteFrom('credential_tree_checkpoint_pages').where('size', '>', held.position).execute();
}

/** The tombstone's key: a DID can be asked about, but the table cannot be listed to learn erased DIDs. */
export const didHash = (did: string) => createHash('sha256').update(did).digest('hex');
