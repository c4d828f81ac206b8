import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Problem } from './problem.ts';

export interface GuessLimitSettings {
  perMinute: number;
  globalPerMinute: number;
}

/**
 * Limits on the routes that can test a guess (an "already registered" answer, a verification, an
 * OPRF evaluation): per client, by IP, trusted only through the configured proxy setting, so a spoofed
 * X-Forwarded-For changes nothing; and for all clients together, which caps distributed guessing
 * against the OPRF key. 0 disables both, for load tests. Counters are per process (docs/deploy.md).
 */
export async function registerGuessLimits(app: FastifyInstance, settings: GuessLimitSettings) {
  if (settings.perMinute === 0) return;
  await app.register(rateLimit, {
    global: false,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => request.ip,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new Problem(429, 'RATE_LIMITED', `Too many attempts. Please try again in ${seconds} seconds.`, {
        'retry-after': String(seconds),
      });
    },
  });
}

/** Route options that put one route under both limits; spread them into the route's options. */
export function guessLimited(settings: GuessLimitSettings): Pick<RouteShorthandOptions, 'config' | 'onRequest'> {
  if (settings.perMinute === 0) return {};
  let window = { start: 0, count: 0 };
  return {
    config: { rateLimit: { max: settings.perMinute, timeWindow: 60_000 } },
    onRequest: async () => {
      if (settings.globalPerMinute === 0) return;
      const now = Date.now();
      if (now - window.start >= 60_000) window = { start: now, count: 0 };
      window.count += 1;
      if (window.count > settings.globalPerMinute) {
        const seconds = Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
        throw new Problem(429, 'RATE_LIMITED', `The service is busy. Please try again in ${seconds} seconds.`, {
          'retry-after': String(seconds),
        });
      }
    },
  };
}
