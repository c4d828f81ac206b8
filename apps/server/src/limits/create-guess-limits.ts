import type { AttemptRepository } from '../storage/types.ts';
import { GuessBudget } from './guess-budget.ts';

/** The settings the guess limits read, named alike in the server's configuration and an OPRF node's. */
export interface GuessLimitConfig {
  rateLimitPerMinute: number;
  rateLimitGlobalPerMinute: number;
  ipv6ClientPrefix: number;
  guessesBeforeDelay: number;
  guessRefillMs: number;
  guessDelayMs: number;
  guessMaxDelayMs: number;
  guessForgetMs: number;
}

/** One process's guess limits: the per-client burst limit, how clients are keyed, and the limits kept in the database. */
export interface GuessLimits {
  /** Requests a minute per client on each guess-capable route; 0 disables every limit. */
  perMinute: number;
  /** IPv6 clients are grouped by this prefix length (64: one subscriber's network). */
  ipv6Prefix: number;
  /** The limits kept in the database: the failure throttle, the guess bucket and the global budget. */
  budget: GuessBudget;
}

/**
 * The guess limits of the server or of an OPRF node, from their configuration; RATE_LIMIT_PER_MINUTE=0
 * turns every one of them off. `failuresBeforeDelay` is the failed-verification throttle's (0 on a
 * node, which verifies nothing); `extraGuesses` widens a full bucket (a node's `nodeSlack`).
 */
export function createGuessLimits(
  config: GuessLimitConfig,
  attempts: AttemptRepository,
  keySecret: Uint8Array,
  { failuresBeforeDelay, extraGuesses = 0 }: { failuresBeforeDelay: number; extraGuesses?: number },
): GuessLimits {
  const on = config.rateLimitPerMinute > 0;
  return {
    perMinute: config.rateLimitPerMinute,
    ipv6Prefix: config.ipv6ClientPrefix,
    budget: new GuessBudget(
      attempts,
      {
        globalPerMinute: on ? config.rateLimitGlobalPerMinute : 0,
        failuresBeforeDelay: on ? failuresBeforeDelay : 0,
        guessCapacity: on && config.guessesBeforeDelay > 0 ? config.guessesBeforeDelay + extraGuesses : 0,
        guessRefillMs: config.guessRefillMs,
        delayMs: config.guessDelayMs,
        maxDelayMs: config.guessMaxDelayMs,
        forgetAfterMs: config.guessForgetMs,
      },
      keySecret,
    ),
  };
}
