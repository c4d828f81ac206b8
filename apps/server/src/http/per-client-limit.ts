import type { FastifyRequest, RouteShorthandOptions } from 'fastify';
import { clientKey } from '../limits/client-key.ts';
import { clientMinutes } from '../limits/client-minutes.ts';
import { slowRefusal } from '../limits/slow-refusal.ts';
import { rateLimited } from '../problem.ts';

/**
 * A per-client request limit for routes that cost work but test no guess (so they do not spend the
 * global guess budget): `perMinute` requests in a client's own minute (`clientMinutes`), then a 429
 * with Retry-After.
 *
 * The 429 is sent after a pause (`slowRefusal`, limits/slow-refusal.ts). RATE_LIMIT_PER_MINUTE=0
 * disables it with the other limits.
 */
export function perClientLimited(settings: { perMinute: number; ipv6Prefix: number }): Pick<RouteShorthandOptions, 'onRequest'> {
  if (settings.perMinute === 0) return {};
  const minutes = clientMinutes(settings.perMinute);
  return {
    onRequest: async (request: FastifyRequest) => {
      const ends = minutes(clientKey(request.ip, settings.ipv6Prefix), Date.now());
      if (ends === undefined) return;
      await slowRefusal();
      const seconds = Math.max(1, Math.ceil((ends - Date.now()) / 1000));
      throw rateLimited({ what: 'requests', retryAfterSeconds: seconds });
    },
  };
}
