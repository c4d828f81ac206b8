import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { isStorageFailure } from '../storage/storage-failure.ts';
import type { OidcRepository } from '../storage/types.ts';

/**
 * The database is full, down or read-only (decision 037): a 503 with OAuth's
 * `temporarily_unavailable`, rendered by ZeroID rather than redirected (nothing was stored, and the
 * person may simply try again), never oidc-provider's 500 `server_error`. Its `code` makes the HTTP
 * layer treat it as every other storage failure.
 */
export class StorageUnavailable extends errors.OIDCProviderError {
  readonly code = 'ZEROID_STORAGE_UNAVAILABLE';
  override error_description = 'ZeroID cannot store this sign-in right now. Nothing was saved; please try again in a moment.';

  constructor() {
    super(503, 'temporarily_unavailable');
    this.expose = true;
    this.allow_redirect = false;
  }
}

const guarded = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    throw isStorageFailure(error) ? new StorageUnavailable() : error;
  });

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Which pseudonym and which site a record is about, for the record's indexed columns (decision 036):
 * codes, tokens and grants carry `accountId` and `clientId`; an interaction its request's client and,
 * once answered, the login's pseudonym; a session the one client it signed in to.
 */
export function ownersOf(payload: AdapterPayload): { accountId?: string | undefined; clientId?: string | undefined } {
  const record = payload as Record<string, unknown> & {
    result?: { login?: { accountId?: unknown } };
    session?: { accountId?: unknown };
    params?: { client_id?: unknown };
    authorizations?: Record<string, unknown>;
  };
  const authorized = Object.keys(record.authorizations ?? {});
  return {
    accountId: text(record.accountId) ?? text(record.result?.login?.accountId) ?? text(record.session?.accountId),
    clientId: text(record.clientId) ?? text(record.params?.client_id) ?? (authorized.length === 1 ? authorized[0] : undefined),
  };
}

/**
 * oidc-provider's persistence on our storage (SQLite or PostgreSQL), so every process sees the same
 * codes, interactions and clients. `Client` is read from the registered clients (`npm run oidc --
 * add-client`), never written by the provider: dynamic registration is off.
 */
export function storageAdapter(oidc: OidcRepository) {
  return (model: string): Adapter => {
    if (model === 'Client') return clientAdapter(oidc);
    const read = async (id: string | undefined): Promise<AdapterPayload | undefined> => {
      if (id === undefined) return undefined;
      const row = await guarded(oidc.find(model, id));
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumedAt === undefined ? payload : { ...payload, consumed: Math.floor(row.consumedAt / 1000) };
    };
    return {
      async upsert(id, payload, expiresIn) {
        // Every artifact of ours has a lifetime (ttl in the provider's configuration); a day at most
        // stands in for one that would not.
        const expiresAt = Date.now() + (expiresIn ?? 86_400) * 1000;
        await guarded(
          oidc.upsert(model, id, JSON.stringify(payload), expiresAt, { grantId: payload.grantId, uid: payload.uid, ...ownersOf(payload) }),
        );
      },
      find: read,
      async findByUid(uid) {
        return read(await guarded(oidc.findIdByUid(model, uid)));
      },
      async findByUserCode() {
        return undefined; // the device flow is off
      },
      async consume(id) {
        // oidc-provider reads `consumed` and then consumes: two processes exchanging one code at the
        // same moment could both pass its read. This UPDATE lets exactly one of them through.
        if (!(await guarded(oidc.consume(model, id)))) throw new errors.InvalidGrant('authorization code already consumed');
      },
      async destroy(id) {
        await guarded(oidc.destroy(model, id));
      },
      async revokeByGrantId(grantId) {
        await guarded(oidc.revokeByGrantId(grantId));
      },
    };
  };
}

function clientAdapter(oidc: OidcRepository): Adapter {
  const refuse = async () => {
    throw new Error('Clients are registered with npm run oidc -- add-client');
  };
  return {
    async find(id) {
      const metadata = await guarded(oidc.findClient(id));
      return metadata === undefined ? undefined : (JSON.parse(metadata) as AdapterPayload);
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    upsert: refuse,
    consume: refuse,
    destroy: refuse,
    revokeByGrantId: async () => undefined,
  };
}
