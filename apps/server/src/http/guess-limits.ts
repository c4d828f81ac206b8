import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { AttemptLimits } from '../services/attempt-limits.ts';
import { Problem } from './problem.ts';

export interface GuessLimitSettings {
  /** Requests a minute per client on each guess-capable route; 0 disables every limit. */
  perMinute: number;
  /** The limits kept in the database: the global budget and failed-verification delays. */
  attempts: AttemptLimits;
}

/**
 * Limits on the routes that can test a guess (an "already registered" answer, a verification, an
 * OPRF evaluation, a member list):
 * - per client and route, by IP, in this process's memory (a burst limit; trusted only through the
 *   configured proxy setting, so a spoofed X-Forwarded-For changes nothing);
 * - for all clients together, in the database (`AttemptLimits`), shared by every process and kept
 *   across restarts, which caps distributed guessing against the OPRF key.
 * 0 disables all of them, for load tests.
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
  return {
    config: { rateLimit: { max: settings.perMinute, timeWindow: 60_000 } },
    onRequest: async () => settings.attempts.spendGlobalBudget(),
  };
}
