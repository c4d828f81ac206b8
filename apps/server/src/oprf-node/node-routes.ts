import type { FastifyInstance } from 'fastify';
import { assertBlindedRequest, OPRF_SUITE, OprfNodeKeyReply, OprfReply, OprfRequest, type Static } from '@zeroid/protocol';
import { libsodiumReady } from '../services/libsodium.ts';
import type { OprfShareFile } from '../services/oprf-share-file.ts';
import { sodiumBlindEvaluate } from '../services/sodium-voprf.ts';
import type { nodeLimits } from './node-limits.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * A node's routes. POST /oprf is the server's POST /oprf, wire for wire, with the node's share kᵢ:
 * one blinded element in, kᵢ·B out with an RFC 9497 DLEQ proof against Kᵢ, so a client can tell a
 * node that used anything but its share. GET /oprf/public-key publishes Kᵢ, the node's place and the
 * group key it belongs to.
 *
 * The evaluation and its proof run on libsodium (sodium-voprf.ts, decision 026): about 0.7 ms on the
 * event loop, where voprf-ts on noble's BigInt code took about 12 ms (same loaded machine) and capped a node near 80
 * evaluations a second.
 */
export function nodeRoutes(
  app: FastifyInstance,
  { share, limits, ping }: { share: OprfShareFile; limits: ReturnType<typeof nodeLimits>; ping: () => Promise<void> },
) {
  const keyReply: OprfNodeKeyReply = {
    suite: OPRF_SUITE,
    index: share.index,
    publicKey: b64(share.publicKey),
    threshold: share.threshold,
    groupPublicKey: b64(share.groupPublicKey),
  };
  app.get('/oprf/public-key', { schema: { response: { 200: OprfNodeKeyReply } } }, async () => keyReply);

  app.post<{ Body: Static<typeof OprfRequest> }>(
    '/oprf',
    { ...limits.burst(), schema: { body: OprfRequest, response: { 200: OprfReply } } },
    async (request) => {
      const element = new Uint8Array(Buffer.from(request.body.element, 'base64url'));
      // Refused (400) before it spends an attempt; a valid one draws on the client's budget.
      assertBlindedRequest(element);
      await limits.admit(request);
      await libsodiumReady;
      return { evaluation: b64(sodiumBlindEvaluate(share.share, share.publicKey, element.subarray(2))) };
    },
  );

  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/healthz', async (request, reply) => {
    try {
      await ping();
      return { status: 'ready', index: share.index };
    } catch (error) {
      request.log.warn({ err: { name: (error as Error).name, code: (error as { code?: string }).code } }, 'not ready');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: { code: 'NOT_READY', message: 'Storage is not reachable yet.' } });
    }
  });
}
