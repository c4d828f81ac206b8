import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { RESERVATION_HEADER } from '@zeroid/protocol';
import { BURST_CLIENTS, BURST_WINDOW_MS, burstRetrySeconds } from '../limits/burst-limit.ts';
import { clientKey } from '../limits/client-key.ts';
import type { GuessLimits } from '../limits/create-guess-limits.ts';
import type { GuessClient } from '../limits/guess-admitter.ts';
import { reservationToken } from '../limits/reservation-token.ts';
import { rateLimited } from '../problem.ts';

/**
 * Limits on the routes that can test a guess (an "already registered" answer, a verification, an
 * OPRF evaluation, a member list), in this order:
 * 1. per client and route, in this process's memory, before the body is even read (a burst limit,
 *    `guessLimited`);
 * 2. the request's own validation: a malformed request is refused (4xx) and spends nothing more;
 * 3. `guessAdmitter` (limits/), called right before the request evaluates, with the client
 *    `guessClient` reads: the client's failure throttle and guess bucket (or the flow's reservation
 *    the request carries), then the global budget, all in the database (`GuessBudget`).
 * Clients are keyed by `clientKey` (IPv6 by network), from the address Fastify sees: X-Forwarded-For
 * only through the configured proxy, so a spoofed header changes nothing. 0 disables all of them.
 */
export async function registerGuessLimits(
  app: FastifyInstance,
  settings: Pick<GuessLimits, 'perMinute' | 'ipv6Prefix'> & {
    /** The burst limit's client key; `clientKey` of the address by default (an OPRF node keys its listed servers exactly). */
    keyOf?: (request: FastifyRequest) => string;
  },
) {
  if (settings.perMinute === 0) return;
  await app.register(rateLimit, {
    global: false,
    timeWindow: BURST_WINDOW_MS,
    keyGenerator: settings.keyOf ?? ((request: FastifyRequest) => clientKey(request.ip, settings.ipv6Prefix)),
    errorResponseBuilder: (_request, context) => {
      return rateLimited({ what: 'requests', retryAfterSeconds: burstRetrySeconds(context.ttl) });
    },
  });
}

/**
 * Route options that put one route under the per-client burst limit; spread them into the route's
 * options. `perMinuteOf` gives a client key its own limit (an OPRF node's listed servers).
 */
export function guessLimited(
  settings: Pick<GuessLimits, 'perMinute'>,
  perMinuteOf?: (key: string) => number,
): Pick<RouteShorthandOptions, 'config'> {
  if (settings.perMinute === 0) return {};
  const max = perMinuteOf ? (_request: FastifyRequest, key: string) => perMinuteOf(key) : settings.perMinute;
  return { config: { rateLimit: { max, timeWindow: BURST_WINDOW_MS, cache: BURST_CLIENTS } } };
}

/**
 * The client a request counts against, for `guessAdmitter`: its address as Fastify trusts it, and the
 * flow's reservation it carries (`zeroid-reservation`), if well formed; anything else draws on the bucket.
 */
export function guessClient(request: FastifyRequest): GuessClient {
  return { address: request.ip, reservation: reservationToken(request.headers[RESERVATION_HEADER]) };
}
