import type { FastifyInstance } from 'fastify';
import { issuersGuide } from './issuers.openapi.ts';
import { IssuersReply } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { typed } from '../http/typed-app.ts';
import { issuersRoot } from '../credentials/issuers-root.ts';

/** GET /issuers (decision 079): the trusted issuers, by name and public key, whether a credential is required, and the root of their tree. */
export function issuersRoute(app: FastifyInstance, { config }: RouteDeps) {
  const reply: IssuersReply = {
    issuers: config.trustedIssuers.map(({ name, publicKey }) => ({ name, publicKey })),
    credentialRequired: config.requireCredential,
    issuersRoot: issuersRoot(config.trustedIssuers),
  };
  typed(app).get('/issuers', { schema: { 'x-guide': issuersGuide, response: { 200: IssuersReply } } }, async () => reply);
}
