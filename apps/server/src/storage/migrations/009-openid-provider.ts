import type { Kysely } from 'kysely';

/**
 * Sign in with ZeroID (decision 023): the OpenID provider's state, shared by every server process.
 * - `oidc_models`: oidc-provider's short-lived artifacts (authorization codes, interactions, grants,
 *   sessions, tokens), one JSON payload per (model, id), with an expiry and a consumption time that
 *   is set once, atomically, so a code is exchanged at most once across processes.
 * - `oidc_clients`: registered relying parties, as oidc-provider client metadata (JSON).
 * - `oidc_keys`: the ID-token signing keys (private JWKs, newest published first, the previous one
 *   still published after a rotation) and the cookie-signing secrets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_models')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_models_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_models_grant_id').on('oidc_models').column('grant_id').execute();
  await db.schema.createIndex('oidc_models_uid').on('oidc_models').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oidc_models_expires_at').on('oidc_models').column('expires_at').execute();

  await db.schema
    .createTable('oidc_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oidc_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_keys').execute();
  await db.schema.dropTable('oidc_clients').execute();
  await db.schema.dropTable('oidc_models').execute();
}
