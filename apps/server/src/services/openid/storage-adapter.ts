import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { OidcRepository } from '../../storage/types.ts';

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
      const row = await oidc.find(model, id);
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumedAt === undefined ? payload : { ...payload, consumed: Math.floor(row.consumedAt / 1000) };
    };
    return {
      async upsert(id, payload, expiresIn) {
        // Every artifact of ours has a lifetime (ttl in the provider's configuration); a day at most
        // stands in for one that would not.
        const expiresAt = Date.now() + (expiresIn ?? 86_400) * 1000;
        await oidc.upsert(model, id, JSON.stringify(payload), expiresAt, { grantId: payload.grantId, uid: payload.uid });
      },
      find: read,
      async findByUid(uid) {
        return read(await oidc.findIdByUid(model, uid));
      },
      async findByUserCode() {
        return undefined; // the device flow is off
      },
      async consume(id) {
        // oidc-provider reads `consumed` and then consumes: two processes exchanging one code at the
        // same moment could both pass its read. This UPDATE lets exactly one of them through.
        if (!(await oidc.consume(model, id))) throw new errors.InvalidGrant('authorization code already consumed');
      },
      async destroy(id) {
        await oidc.destroy(model, id);
      },
      async revokeByGrantId(grantId) {
        await oidc.revokeByGrantId(grantId);
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
      const metadata = await oidc.findClient(id);
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
