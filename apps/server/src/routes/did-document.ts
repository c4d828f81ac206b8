import type { FastifyInstance } from 'fastify';
import { didDocument } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';

/**
 * GET /did/:did: the W3C DID Core document of a registered did:key. A did:key resolves from the
 * identifier alone; answering only for registered ones lets a relying party also learn that the
 * DID belongs to a ZeroID member.
 */
export function didDocumentRoute(app: FastifyInstance, { storage }: AppDeps) {
  app.get<{ Params: { did: string } }>('/did/:did', async (request, reply) => {
    const { did } = request.params;
    const record = /^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{40,50}$/.test(did) ? await storage.identities.findByDid(did) : undefined;
    if (!record) return reply.code(404).send({ error: { code: 'DID_NOT_FOUND', message: 'No registered identity has this DID.' } });
    return reply.type('application/did+ld+json').send(didDocument(did));
  });
}
