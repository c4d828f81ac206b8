import { createHash } from 'node:crypto';
import { Problem } from './problem.ts';
import type { AttemptRepository } from '../storage/types.ts';

export interface AttemptLimitSettings {
  /** Guess-capable requests a minute from all clients together; 0 turns the budget off. */
  globalPerMinute: number;
  /** Failed verifications a client may have before each further attempt must wait; 0 turns it off. */
  failuresBeforeDelay: number;
  /** The wait after `failuresBeforeDelay` failures; it doubles with each further failure… */
  delayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** A client's failures are forgotten once it has had none for this long. */
  forgetAfterMs: number;
}

const WINDOW_MS = 60_000;
const GLOBAL_KEY = 'global-guess-budget';

/**
 * Attempt limits kept in the database, so they survive a restart and bind every process alike:
 *
 * - a global budget of guess-capable requests a minute (OPRF evaluations, registrations,
 *   verifications, member lists), so no number of clients can turn the OPRF key into a fast oracle;
 * - NIST SP 800-63B-4's throttling for biometric comparison: after `failuresBeforeDelay` (5)
 *   consecutive failed verifications, each further attempt from that client waits at least
 *   `delayMs` (30 s), doubling per failure up to `maxDelayMs`. A success does not reset the count,
 *   or an attacker could interleave their own identity's successes with guesses; the count is
 *   forgotten after `forgetAfterMs` without failures.
 *
 * Clients are keyed by the request's address as Fastify sees it (X-Forwarded-For only through a
 * configured trusted proxy), stored as a hash.
 */
export class AttemptLimits {
  constructor(
    private readonly attempts: AttemptRepository,
    private readonly settings: AttemptLimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws a 429 when the global budget for this minute is spent. */
  async spendGlobalBudget(): Promise<void> {
    if (this.settings.globalPerMinute === 0) return;
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    const count = await this.attempts.countInWindow(GLOBAL_KEY, windowStart, now);
    if (count > this.settings.globalPerMinute) {
      const seconds = secondsUntil(windowStart + WINDOW_MS, now);
      throw new Problem(429, 'RATE_LIMITED', `The service is busy. Please try again in ${seconds} seconds.`, {
        'retry-after': String(seconds),
      });
    }
  }

  /** Throws a 429 with Retry-After while the client must wait after repeated failed verifications. */
  async assertMayVerify(client: string): Promise<void> {
    if (this.settings.failuresBeforeDelay === 0) return;
    const now = this.now();
    const failures = await this.attempts.failures(clientKey(client), now, this.settings.forgetAfterMs);
    if (!failures) return;
    const until = failures.lastAt + this.delayAfter(failures.count);
    if (now < until) {
      const seconds = secondsUntil(until, now);
      throw new Problem(429, 'TOO_MANY_FAILURES', `Too many failed verifications. Please try again in ${seconds} seconds.`, {
        'retry-after': String(seconds),
      });
    }
  }

  async recordFailedVerification(client: string): Promise<void> {
    if (this.settings.failuresBeforeDelay === 0) return;
    await this.attempts.recordFailure(clientKey(client), this.now(), this.settings.forgetAfterMs);
  }

  /** How long a client with `failures` consecutive failures waits before its next attempt. */
  delayAfter(failures: number): number {
    const beyond = failures - this.settings.failuresBeforeDelay;
    if (beyond < 0) return 0;
    return Math.min(this.settings.maxDelayMs, this.settings.delayMs * 2 ** Math.min(beyond, 30));
  }
}

const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/** Addresses are personal data: the table holds a hash of them, enough to count, not to list. */
function clientKey(client: string): string {
  return `failed-verification:${createHash('sha256').update(`zeroid/attempts/v1:${client}`).digest('base64url')}`;
}
