import type { RouteShorthandOptions } from 'fastify';
import type { GuessLimitSettings } from './guess-limits.ts';

/**
 * Route options for a per-client request limit alone (the same @fastify/rate-limit registration and
 * client key as the guess limits), for routes that cost work but test no guess, so they do not spend
 * the global guess budget. RATE_LIMIT_PER_MINUTE=0 disables it with the others.
 */
export function perClientLimited(settings: Pick<GuessLimitSettings, 'perMinute'>): Pick<RouteShorthandOptions, 'config'> {
  if (settings.perMinute === 0) return {};
  return { config: { rateLimit: { max: settings.perMinute, timeWindow: 60_000 } } };
}
