import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../problem.ts';
import type { Metrics } from '../metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Prometheus text. Not on the public listener by default: request rates per route and process
 * figures help an attacker time and aim a flood. It is served on METRICS_PORT's own listener, and on
 * the public one only when METRICS_TOKEN is set, to requests bearing it. With a token, every listener
 * asks for it.
 */
export function metricsRoute(app: FastifyInstance, { metrics, token }: { metrics: Metrics; token: string | undefined }) {
  // Compared as SHA-256 digests: equal lengths for timingSafeEqual, and no early exit on a prefix.
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      throw new Problem(401, 'UNAUTHORIZED', 'Metrics need the metrics token: send Authorization: Bearer <METRICS_TOKEN>.', {
        'www-authenticate': 'Bearer',
      });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
