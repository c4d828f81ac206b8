import type { FastifyInstance } from 'fastify';
import { assertBlindedRequest, OPRF_SUITE, OprfKeyReply, OprfReply, OprfRequest, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { admitGuess, guessLimited, OPRF_EVALUATION } from '../http/guess-limits.ts';

/**
 * The OPRF (RFC 9497, VOPRF mode). POST /oprf evaluates exactly one blinded element with the
 * server's key and proves (DLEQ) that it used the published key. Every guess at a biometric or ID
 * must pass through here, since stored values are useless without the key: this is the brute-force
 * gate, under both rate limits. GET /oprf/public-key publishes the key the client checks proofs against.
 */
export function oprfRoutes(app: FastifyInstance, { oprf, limits, metrics }: AppDeps) {
  const publicKey = Buffer.from(oprf.publicKey).toString('base64url');
  app.get('/oprf/public-key', { schema: { response: { 200: OprfKeyReply } } }, async () => ({ suite: OPRF_SUITE, publicKey }));

  app.post<{ Body: Static<typeof OprfRequest> }>(
    '/oprf',
    { ...guessLimited(limits), schema: { body: OprfRequest, response: { 200: OprfReply } } },
    async (request) => {
      const element = new Uint8Array(Buffer.from(request.body.element, 'base64url'));
      // A malformed element is refused (400) before it spends an attempt; a valid one draws on the
      // client's guess budget, since the server cannot tell a guess from an honest round.
      assertBlindedRequest(element);
      await admitGuess(request, limits, OPRF_EVALUATION);
      const evaluation = await oprf.blindEvaluate(element);
      metrics.oprfEvaluations.inc({ kind: 'blinded' });
      return { evaluation: Buffer.from(evaluation).toString('base64url') };
    },
  );
}
