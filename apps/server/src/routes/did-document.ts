import type { FastifyInstance } from 'fastify';
import { didDocumentGuide } from './did-document.openapi.ts';
import { didDocument } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { replyProblem } from '../http/reply-problem.ts';
import { Problem } from '../problem.ts';

/**
 * GET /did/:did: the W3C DID Core document of a registered did:key. A did:key resolves from the
 * identifier alone; answering only for registered ones lets a relying party also learn that the
 * DID belongs to a ZeroID member. An erased one answers `deactivated: true` until the same person
 * registers again (the same biometric derives the same DID).
 */
export function didDocumentRoute(app: FastifyInstance, deps: RouteDeps) {
  app.get<{ Params: { did: string } }>('/did/:did', { schema: { 'x-guide': didDocumentGuide } }, async (request, reply) => {
    const { did } = request.params;
    const known = await deps.useCases.resolveDid(did);
    // An erased DID (decision 022) answers as W3C DID Resolution does for a deactivated DID: 410 Gone,
    // with the resolution result and `deactivated: true` in the document metadata.
    if (known === 'deactivated') {
      return reply
        .code(410)
        .type('application/ld+json;profile="https://w3id.org/did-resolution"')
        .send({
          '@context': 'https://w3id.org/did-resolution/v1',
          didDocument: null,
          didResolutionMetadata: { contentType: 'application/did+ld+json' },
          didDocumentMetadata: { deactivated: true },
        });
    }
    if (known === 'unknown') return replyProblem(reply, new Problem(404, 'DID_NOT_FOUND', 'No registered identity has this DID.'));
    return reply.type('application/did+ld+json').send(didDocument(did));
  });
}
