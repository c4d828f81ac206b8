import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { OidcRepository } from './types.ts';

/**
 * The OpenID provider's state (migration 009). Artifacts are JSON payloads keyed by (model, id) with
 * an expiry: an expired row reads as absent and is purged later. Consumption is one conditional
 * UPDATE, so of any number of concurrent exchanges of one authorization code, in any number of
 * processes, exactly one sees a row change.
 */
export function oidcRepository(db: Kysely<Database>): OidcRepository {
  return {
    async upsert(model, id, payload, expiresAt, { grantId, uid }) {
      const values = { payload, expires_at: expiresAt, grant_id: grantId ?? null, uid: uid ?? null };
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

    async addClient(clientId, metadata, now = Date.now()) {
      const result = await db
        .insertInto('oidc_clients')
        .values({ client_id: clientId, metadata, created_at: now })
        .onConflict((conflict) => conflict.column('client_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async findClient(clientId) {
      return (await db.selectFrom('oidc_clients').select('metadata').where('client_id', '=', clientId).executeTakeFirst())?.metadata;
    },

    async listClients() {
      return (await db.selectFrom('oidc_clients').select('metadata').orderBy('created_at').orderBy('client_id').execute()).map(
        (r) => r.metadata,
      );
    },

    async removeClient(clientId) {
      const result = await db.deleteFrom('oidc_clients').where('client_id', '=', clientId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async keys(purpose) {
      const rows = await db
        .selectFrom('oidc_keys')
        .select(['kid', 'secret', 'created_at'])
        .where('purpose', '=', purpose)
        .orderBy('created_at', 'desc')
        .orderBy('kid', 'desc')
        .execute();
      return rows.map((row) => ({ kid: row.kid, secret: row.secret, createdAt: Number(row.created_at) }));
    },

    async addKey(purpose, kid, secret, now = Date.now()) {
      await db
        .insertInto('oidc_keys')
        .values({ kid, purpose, secret, created_at: now })
        .onConflict((conflict) => conflict.column('kid').doNothing())
        .execute();
    },

    async removeKey(kid) {
      await db.deleteFrom('oidc_keys').where('kid', '=', kid).execute();
    },
  };
}
