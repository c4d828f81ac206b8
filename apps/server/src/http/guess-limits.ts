import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { RESERVATION_HEADER } from '@zeroid/protocol';
import type { Admission, GuessBudget, GuessCost } from '../limits/guess-budget.ts';
import type { AdmitGuess } from '../limits/spend-guess.ts';
import { clientKey } from '../limits/client-key.ts';
import { Problem } from '../problem.ts';
import { assertEnoughNodes } from '../oprf/nodes/evaluate-with-nodes.ts';
import type { OprfNodesState } from '../oprf/nodes/oprf-node-set.ts';

export interface GuessLimitSettings {
  /** Requests a minute per client on each guess-capable route; 0 disables every limit. */
  perMinute: number;
  /** IPv6 clients are grouped by this prefix length (64: one subscriber's network). */
  ipv6Prefix: number;
  /** The limits kept in the database: the failure throttle, the guess budget and the global budget. */
  budget: GuessBudget;
}

/**
 * Limits on the routes that can test a guess (an "already registered" answer, a verification, an
 * OPRF evaluation, a member list), in this order:
 * 1. per client and route, in this process's memory, before the body is even read (a burst limit,
 *    `guessLimited`);
 * 2. the request's own validation: a malformed request is refused (4xx) and spends nothing more;
 * 3. `admitGuess`, called by the route right before it evaluates: the client's failure throttle and
 *    guess bucket (or the flow's reservation the request carries), then the global budget, all in
 *    the database (`GuessBudget`).
 * Clients are keyed by `clientKey` (IPv6 by network), from the address Fastify sees: X-Forwarded-For
 * only through the configured proxy, so a spoofed header changes nothing. 0 disables all of them.
 */
export async function registerGuessLimits(
  app: FastifyInstance,
  settings: Pick<GuessLimitSettings, 'perMinute' | 'ipv6Prefix'> & {
    /** The burst limit's client key; `clientKey` of the address by default (an OPRF node keys its listed servers exactly). */
    keyOf?: (request: FastifyRequest) => string;
  },
) {
  if (settings.perMinute === 0) return;
  await app.register(rateLimit, {
    global: false,
    timeWindow: 60_000,
    keyGenerator: settings.keyOf ?? ((request: FastifyRequest) => clientKey(request.ip, settings.ipv6Prefix)),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new Problem(429, 'RATE_LIMITED', `Too many attempts. Please try again in ${seconds} seconds.`, {
        'retry-after': String(seconds),
      });
    },
  });
}

/**
 * Clients each route's burst limit remembers at once. `@fastify/rate-limit` keeps 5,000 by default,
 * least recently used first out, so 5,000 other addresses in a minute (an IPv6 /51 holds 8,192
 * networks of /64) gave a refused client a fresh allowance. 50,000 entries cost a few MB per route.
 */
export const BURST_CLIENTS = 50_000;

/**
 * Route options that put one route under the per-client burst limit; spread them into the route's
 * options. `perMinuteOf` gives a client key its own limit (an OPRF node's listed servers).
 */
export function guessLimited(
  settings: Pick<GuessLimitSettings, 'perMinute'>,
  perMinuteOf?: (key: string) => number,
): Pick<RouteShorthandOptions, 'config'> {
  if (settings.perMinute === 0) return {};
  const max = perMinuteOf ? (_request: FastifyRequest, key: string) => perMinuteOf(key) : settings.perMinute;
  return { config: { rateLimit: { max, timeWindow: 60_000, cache: BURST_CLIENTS } } };
}

const admitted: Admission = { releaseVerification: async () => undefined, releaseGuesses: async () => undefined };

/**
 * Admits a well-formed request about to evaluate `cost`, or throws a 429 (GuessRefused). In
 * threshold mode (`nodes`), a request that evaluates is first refused with the evaluation's 503 when
 * the server already knows fewer than t nodes whose keys fit (`assertEnoughNodes`, decision 053): no
 * guess is counted for an answer the server knows it cannot give.
 */
export async function admitGuess(
  request: FastifyRequest,
  settings: GuessLimitSettings,
  cost: GuessCost,
  nodes?: OprfNodesState,
  { answering = false }: { answering?: boolean } = {},
): Promise<Admission> {
  if (nodes && cost.guesses > 0) {
    try {
      assertEnoughNodes(nodes.current, { answering });
    } catch (error) {
      // Read the keys again soon rather than at the next interval: a node may be back already.
      nodes.rereadSoon?.();
      throw error;
    }
  }
  if (settings.perMinute === 0) return admitted;
  return settings.budget.admit(clientKey(request.ip, settings.ipv6Prefix), cost, reservationOf(request));
}

/** The flow's reservation the request carries (`zeroid-reservation`), if well formed; anything else draws on the bucket. */
export function reservationOf(request: FastifyRequest): string | undefined {
  const value = request.headers[RESERVATION_HEADER];
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

/**
 * `admitGuess` bound to one request's client (and, in threshold mode, to the node set whose 503 comes
 * before any guess is counted): what a use case is handed to spend guesses (`spendGuess`).
 */
export const guessAdmitter =
  (request: FastifyRequest, settings: GuessLimitSettings, nodes?: OprfNodesState): AdmitGuess =>
  (cost) =>
    admitGuess(request, settings, cost, nodes);
