import { clientKey } from './client-key.ts';
import { exactAddress } from './exact-address.ts';
import { OPRF_EVALUATION } from './guess-costs.ts';
import { createGuessLimits, type GuessLimitConfig } from './create-guess-limits.ts';
import { RESERVATION_MS } from './guess-budget.ts';
import { GuessRefused } from './guess-refused.ts';
import type { AttemptRepository } from '../storage/types.ts';

/** What a node's limits read of its configuration (`oprf-node/node-config.ts`, which names them as the server does). */
export interface NodeLimitConfig extends GuessLimitConfig {
  serverClients: readonly string[];
  serverClientPerMinute: number;
  admissionMaxAgeMs: number;
}

const WINDOW_MS = 60_000;
/** The prefix of a listed server's client key: no address or network key starts with it. */
const SERVER = 'server ';

/**
 * A node's limits on POST /oprf, the server's machinery with the node's own counters (its own
 * SQLite file): a per-client burst limit in memory, then, right before evaluating, in storage:
 * - an end user's client: the guess bucket (`GUESSES_BEFORE_DELAY`, refilled by `GUESS_REFILL_PER_HOUR`),
 *   as on the server, with room for what the server admitted a little earlier (`nodeSlack`), so that
 *   a node never refuses, halfway through a flow, an evaluation the server has admitted (decision 074);
 * - a ZeroID server (`SERVER_CLIENTS`), whose raw path forwards many people from one address: at
 *   most `SERVER_CLIENT_PER_MINUTE` evaluations a minute, as a window counter;
 * - then everyone's global budget (`RATE_LIMIT_GLOBAL_PER_MINUTE`), servers included, so neither
 *   many addresses nor a compromised server can make this node a fast oracle.
 * Refusals are the server's 429s (`TOO_MANY_GUESSES`, `RATE_LIMITED`) with Retry-After.
 */
export function nodeLimits(config: NodeLimitConfig, attempts: AttemptRepository, keySecret: Uint8Array) {
  const on = config.rateLimitPerMinute > 0;
  // A node verifies nothing: there are no failures to throttle.
  const limits = createGuessLimits(config, attempts, keySecret, { failuresBeforeDelay: 0, extraGuesses: nodeSlack(config) }).budget;
  const servers = new Set(config.serverClients);
  /** A listed server by its exact address; everyone else as every limit keys clients (IPv6 by network). */
  const keyOf = (address: string) => {
    const exact = exactAddress(address);
    return exact !== undefined && servers.has(exact) ? `${SERVER}${exact}` : clientKey(address, config.ipv6ClientPrefix);
  };

  return {
    /** Everyone's burst limit a minute (`RATE_LIMIT_PER_MINUTE`); 0 turns every limit off. */
    perMinute: config.rateLimitPerMinute,

    /** The key of a client address, for the burst limit and the stored limits alike. */
    keyOf,

    /** The in-memory burst limit's requests a minute for a client key: a listed server's, or anyone's. */
    burstPerMinute: (key: string) => (key.startsWith(SERVER) ? config.serverClientPerMinute : config.rateLimitPerMinute),

    /**
     * Admits `elements` evaluations (a batch's elements, decision 027) for the client at `address`,
     * or throws GuessRefused (a 429) and counts none of them.
     */
    async admit(address: string, elements = 1): Promise<void> {
      if (!on) return;
      const client = keyOf(address);
      if (!client.startsWith(SERVER)) {
        await limits.admit(client, { ...OPRF_EVALUATION, guesses: OPRF_EVALUATION.guesses * elements });
        return;
      }
      const now = Date.now();
      const windowStart = now - (now % WINDOW_MS);
      const key = `server-client:${limits.clientId(client)}`;
      let counted = 0;
      while (counted < elements) {
        counted++;
        if ((await attempts.countInWindow(key, windowStart, now)) <= config.serverClientPerMinute) continue;
        for (let i = 0; i < counted; i++) await attempts.uncountInWindow(key, windowStart);
        throw new GuessRefused('RATE_LIMITED', Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)));
      }
      // No guess cost: only the global budget, which every client shares.
      await limits.admit(client, { guesses: 0, verification: false });
    },
  };
}

/**
 * What a node's bucket holds beyond the server's. The node is charged only for evaluations the server
 * charged first (never for a registration's two at POST /register), but later: up to a reservation's
 * life plus an admission's, during which the server's bucket refilled. So the node's bucket holds that
 * refill more, and an honest client the server admitted is never refused at a node (a flow does not
 * fail halfway). A client past the server (one holding its admission key) gains only these few.
 */
export function nodeSlack(config: Pick<NodeLimitConfig, 'admissionMaxAgeMs' | 'guessRefillMs'>): number {
  return Math.ceil((RESERVATION_MS + config.admissionMaxAgeMs) / config.guessRefillMs);
}
