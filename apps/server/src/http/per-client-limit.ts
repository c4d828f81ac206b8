import type { FastifyRequest, RouteShorthandOptions } from 'fastify';
import { clientKey } from '../limits/client-key.ts';
import { clientMinutes } from '../limits/client-minutes.ts';
import { rateLimited } from '../problem.ts';

/** How long a refused request waits for its 429. */
export const REFUSAL_DELAY_MS = 1000;

/** Holds a refusal back, so a flooding connection spends its time waiting instead of making the server work. */
export const slowRefusal = () => new Promise<void>((resolve) => setTimeout(resolve, REFUSAL_DELAY_MS));

/**
 * A per-client request limit for routes that cost work but test no guess (so they do not spend the
 * global guess budget): `perMinute` requests in a client's own minute (`clientMinutes`), then a 429
 * with Retry-After.
 *
 * The 429 is sent after a pause (`REFUSAL_DELAY_MS`). An answered 429 still costs the event loop a
 * little, and a client that resends at once on each of 32 connections would keep it busy with
 * nothing but refusals (a healthy client's p95 grew many times with immediate 429s: docs/benchmarks.md,
 * "Refusal pause"). With the pause each connection gets one refusal a second. RATE_LIMIT_PER_MINUTE=0 disables it
 * with the other limits.
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
