import { sql, type Kysely } from 'kysely';
import { freedBytesScrubber, SIGN_IN_TABLES } from '../freed-bytes-scrubber.ts';
import type { Database } from '../schema.ts';
import type { OidcRepository } from '../types.ts';

/** Well under SQLite's and PostgreSQL's limits on bound parameters in one statement. */
const IDS_PER_QUERY = 500;

/**
 * The OpenID provider's state (migration 009). Artifacts are JSON payloads keyed by (model, id) with
 * an expiry: an expired row reads as absent and is purged later. Consumption is one conditional
 * UPDATE, so of any number of concurrent exchanges of one authorization code, in any number of
 * processes, exactly one sees a row change.
 */
export function oidcRepository(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): OidcRepository {
  // The database's own clock, in epoch milliseconds: every process and the command line agree on it.
  const clock =
    dialect === 'postgres'
      ? sql<{ now: string }>`SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) AS now`
      : sql<{ now: number }>`SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER) AS now`;
  return {
    async clock() {
      const { rows } = await clock.execute(db);
      return Number(rows[0]!.now);
    },

    scrubFreed: freedBytesScrubber(db, dialect, SIGN_IN_TABLES),

    async upsert(model, id, payload, expiresAt, { grantId, uid, accountId, clientId }) {
      const values = {
        payload,
        expires_at: expiresAt,
        grant_id: grantId ?? null,
        uid: uid ?? null,
        account_id: accountId ?? null,
        client_id: clientId ?? null,
      };
      await db
        .insertInto('oidc_models')
        .values({ model, id, consumed_at: null, ...values })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(values))
        .execute();
    },

    async find(model, id, now = Date.now()) {
      const row = await db
        .selectFrom('oidc_models')
        .select(['payload', 'consumed_at'])
        .where('model', '=', model)
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && { payload: row.payload, consumedAt: row.consumed_at === null ? undefined : Number(row.consumed_at) };
    },

    async findIdByUid(model, uid, now = Date.now()) {
      const row = await db
        .selectFrom('oidc_models')
        .select('id')
        .where('model', '=', model)
        .where('uid', '=', uid)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.id;
    },

    async consume(model, id, now = Date.now()) {
      const result = await db
        .updateTable('oidc_models')
        .set({ consumed_at: now })
        .where('model', '=', model)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async destroy(model, id) {
      await db.deleteFrom('oidc_models').where('model', '=', model).where('id', '=', id).execute();
    },

    async revokeByGrantId(grantId) {
      await db.deleteFrom('oidc_models').where('grant_id', '=', grantId).execute();
    },

    async purgeExpired(now = Date.now()) {
      const result = await db.deleteFrom('oidc_models').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async forgetAccounts(accountIds) {
      let deleted = 0;
      for (let start = 0; start < accountIds.length; start += IDS_PER_QUERY) {
        const result = await db
          .deleteFrom('oidc_models')
          .where('account_id', 'in', accountIds.slice(start, start + IDS_PER_QUERY))
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
      }
      return deleted;
    },

    async forgetAccountAtClient(accountId, clientId) {
      const result = await db
        .deleteFrom('oidc_models')
        .where('account_id', '=', accountId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async addClient(clientId, metadata, now = Date.now(), { reuseRemoved = false } = {}) {
      if (reuseRemoved) {
        const result = await db
          .updateTable('oidc_clients')
          .set({ metadata, created_at: now, removed_at: null })
          .where('client_id', '=', clientId)
          .where('removed_at', 'is not', null)
          .executeTakeFirst();
        if (result.numUpdatedRows === 1n) return true;
      }
      const result = await db
        .insertInto('oidc_clients')
        .values({ client_id: clientId, metadata, created_at: now, removed_at: null })
        .onConflict((conflict) => conflict.column('client_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async findClient(clientId) {
      return (
        await db
          .selectFrom('oidc_clients')
          .select('metadata')
          .where('client_id', '=', clientId)
          .where('removed_at', 'is', null)
          .executeTakeFirst()
      )?.metadata;
    },

    async clientRemovedAt(clientId) {
      const row = await db
        .selectFrom('oidc_clients')
        .select('removed_at')
        .where('client_id', '=', clientId)
        .where('removed_at', 'is not', null)
        .executeTakeFirst();
      return row ? Number(row.removed_at) : undefined;
    },

    async everyClient() {
      const rows = await db.selectFrom('oidc_clients').select(['client_id', 'metadata', 'removed_at']).orderBy('created_at').execute();
      return rows.map((row) => ({
        clientId: row.client_id,
        metadata: row.metadata,
        ...(row.removed_at === null ? {} : { removedAt: Number(row.removed_at) }),
      }));
    },

    async listClients() {
      return (
        await db
          .selectFrom('oidc_clients')
          .select('metadata')
          .where('removed_at', 'is', null)
          .orderBy('created_at')
          .orderBy('client_id')
          .execute()
      ).map((r) => r.metadata);
    },

    async removeClient(clientId, now = Date.now()) {
      // The id stays, without its metadata (the secret goes), so it is never given to another site;
      // every record of the site goes, its tokens with them.
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('oidc_clients')
          .select('metadata')
          .where('client_id', '=', clientId)
          .where('removed_at', 'is', null)
          .executeTakeFirst();
        if (!row) return false;
        // What decides its pseudonyms stays (its sector document and the redirect URIs that document
        // had to list, decision 049); the secret and everything else go.
        const { redirect_uris, sector_identifier_uri } = JSON.parse(row.metadata) as Record<string, unknown>;
        const result = await trx
          .updateTable('oidc_clients')
          .set({ metadata: JSON.stringify({ client_id: clientId, redirect_uris, sector_identifier_uri }), removed_at: now })
          .where('client_id', '=', clientId)
          .where('removed_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) return false;
        await trx.deleteFrom('oidc_models').where('client_id', '=', clientId).execute();
        return true;
      });
    },

    async keys(purpose) {
      const rows = await db
        .selectFrom('oidc_keys')
        .select(['kid', 'secret', 'created_at', 'retire_at', 'compromised'])
        .where('purpose', '=', purpose)
        .orderBy('created_at', 'desc')
        .orderBy('kid', 'desc')
        .execute();
      return rows.map((row) => ({
        kid: row.kid,
        secret: row.secret,
        createdAt: Number(row.created_at),
        ...(row.retire_at === null ? {} : { retireAt: Number(row.retire_at) }),
        ...(Number(row.compromised) === 1 && { compromised: true as const }),
      }));
    },

    async addKey(purpose, kid, secret, now = Date.now()) {
      await db
        .insertInto('oidc_keys')
        .values({ kid, purpose, secret, created_at: now, retire_at: null })
        .onConflict((conflict) => conflict.column('kid').doNothing())
        .execute();
    },

    async replaceKeySecret(kid, from, to, retireAt) {
      const result = await db
        .updateTable('oidc_keys')
        .set({ secret: to, ...(retireAt === undefined ? {} : { retire_at: retireAt }) })
        .where('kid', '=', kid)
        .where('secret', '=', from)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async retireCompromisedKey(kid, retireAt) {
      const result = await db
        .updateTable('oidc_keys')
        .set({ retire_at: retireAt })
        .where('kid', '=', kid)
        .where('compromised', '=', 1)
        .where('retire_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async removeRetiredKeys(now) {
      const result = await db.deleteFrom('oidc_keys').where('retire_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async removeKey(kid) {
      await db.deleteFrom('oidc_keys').where('kid', '=', kid).execute();
    },
  };
}
