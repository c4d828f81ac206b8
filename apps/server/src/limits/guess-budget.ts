import { createHmac } from 'node:crypto';
import type { AttemptRepository, ThrottleRule } from '../storage/types.ts';
import { GuessRefused, type GuessRefusal } from './guess-refused.ts';

export interface GuessBudgetSettings {
  /** Guess-capable requests a minute from all clients together; 0 turns the budget off. */
  globalPerMinute: number;
  /** Failed verifications a client may have before each further attempt must wait; 0 turns it off. */
  failuresBeforeDelay: number;
  /** OPRF evaluations a client may cause, on any route, before each further one must wait; 0 turns it off. */
  guessesBeforeDelay: number;
  /** The wait once a client is past an allowance; it doubles with each further attempt… */
  delayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** A client's attempts are forgotten once it has made none for this long. */
  forgetAfterMs: number;
}

/** What one request is about to evaluate. */
export interface GuessCost {
  /** OPRF evaluations: 1 for `/oprf` and a raw `/verify`, 2 for a raw `/register`, else 0. */
  guesses: number;
  /** A verification, under the failed-verification throttle. */
  verification: boolean;
}

/** A request admitted under the limits, with whatever it reserved. */
export interface Admission {
  /** Gives back the reserved verification: it succeeded, or it was never evaluated. */
  releaseVerification(): Promise<void>;
  /**
   * Gives back the guesses and the global budget this request spent: it was never evaluated, because
   * the OPRF nodes could not give an output (threshold mode, decision 053). Once at most.
   */
  releaseGuesses(): Promise<void>;
}

const WINDOW_MS = 60_000;
const GLOBAL_KEY = 'global-guess-budget';

/**
 * The guess budget, kept in the database, so it survives a restart and binds every process alike.
 * A request is admitted only once its input is known to be well formed, right before it evaluates
 * anything, and each limit reserves before it admits (one atomic statement each), so concurrency
 * cannot slip more evaluations through than a limit allows:
 *
 * 1. the failed-verification throttle (NIST SP 800-63B-4 §3.2.3): every verification reserves a
 *    failure before it is evaluated and gives it back on Success; past `failuresBeforeDelay` (5),
 *    each further attempt waits `delayMs` (30 s), doubling up to `maxDelayMs`. A client waiting here
 *    is refused on every route that evaluates a guess (raw `/register`, `/oprf`), not only `/verify`.
 *    A success gives back only its own reservation, never earlier failures, or an attacker could
 *    interleave their own identity's successes with guesses;
 * 2. the per-client guess budget: every OPRF evaluation a client causes, whatever the route, is
 *    counted and never given back (the server cannot tell a guess from an honest round), with the
 *    same waits past `guessesBeforeDelay`;
 * 3. the global budget of guess-capable requests a minute, all clients together, so no number of
 *    addresses can turn the OPRF key into a fast oracle. It is spent last, so a client refused by
 *    its own limits spends none of everyone's budget.
 *
 * Counts are forgotten after `forgetAfterMs` without an attempt. Clients are keyed by `clientKey`
 * and stored as an HMAC under a secret derived from the OPRF key: the table cannot be turned back
 * into addresses without that key, and every process keys a client alike.
 */
export class GuessBudget {
  private readonly failureRule: ThrottleRule;
  private readonly guessRule: ThrottleRule;

  constructor(
    private readonly attempts: AttemptRepository,
    private readonly settings: GuessBudgetSettings,
    private readonly keySecret: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {
    const waits = { delayMs: settings.delayMs, maxDelayMs: settings.maxDelayMs, forgetAfterMs: settings.forgetAfterMs };
    this.failureRule = { allowance: settings.failuresBeforeDelay, ...waits };
    this.guessRule = { allowance: settings.guessesBeforeDelay, ...waits };
  }

  /** Admits one request from `client` about to evaluate `cost`, or throws GuessRefused (nothing kept). */
  async admit(client: string, cost: GuessCost): Promise<Admission> {
    const now = this.now();
    const id = this.clientId(client);
    const failures = `failures:${id}`;
    const guesses = `guesses:${id}`;
    const throttled = this.settings.failuresBeforeDelay > 0;
    const budgeted = this.settings.guessesBeforeDelay > 0 && cost.guesses > 0;
    const reservedVerification = throttled && cost.verification;
    const undo: Array<() => Promise<void>> = [];
    try {
      if (reservedVerification) {
        await this.reserve(failures, 1, now, this.failureRule, 'TOO_MANY_FAILURES');
        undo.push(() => this.attempts.release(failures, 1));
      } else if (throttled && cost.guesses > 0) {
        await this.assertNotWaiting(failures, now, this.failureRule, 'TOO_MANY_FAILURES');
      }
      if (budgeted) {
        await this.reserve(guesses, cost.guesses, now, this.guessRule, 'TOO_MANY_GUESSES');
        undo.push(() => this.attempts.release(guesses, cost.guesses));
      }
      await this.spendGlobalBudget(now);
    } catch (error) {
      for (const release of undo) await release();
      throw error;
    }
    let released = false;
    let guessesReleased = false;
    return {
      releaseVerification: async () => {
        if (!reservedVerification || released) return;
        released = true;
        await this.attempts.release(failures, 1);
      },
      releaseGuesses: async () => {
        if (guessesReleased || cost.guesses === 0) return;
        guessesReleased = true;
        if (budgeted) await this.attempts.release(guesses, cost.guesses);
        if (this.settings.globalPerMinute > 0) await this.attempts.uncountInWindow(GLOBAL_KEY, now - (now % WINDOW_MS));
      },
    };
  }

  /** How long a client waits after `count` attempts under an allowance of `allowance`. */
  waitAfter(count: number, allowance: number = this.settings.failuresBeforeDelay): number {
    const beyond = count - allowance;
    if (beyond < 0) return 0;
    return Math.min(this.settings.maxDelayMs, this.settings.delayMs * 2 ** Math.min(beyond, 30));
  }

  /** The key a client's counters are stored under: a keyed hash, never the address. */
  clientId(client: string): string {
    return createHmac('sha256', this.keySecret).update(`zeroid/attempts/v2:${client}`).digest('base64url');
  }

  private async spendGlobalBudget(now: number): Promise<void> {
    if (this.settings.globalPerMinute === 0) return;
    const windowStart = now - (now % WINDOW_MS);
    const count = await this.attempts.countInWindow(GLOBAL_KEY, windowStart, now);
    if (count > this.settings.globalPerMinute) {
      // Over-budget requests are not counted, so the count stays the number of requests admitted.
      await this.attempts.uncountInWindow(GLOBAL_KEY, windowStart);
      throw new GuessRefused('RATE_LIMITED', secondsUntil(windowStart + WINDOW_MS, now));
    }
  }

  private async reserve(key: string, cost: number, now: number, rule: ThrottleRule, refusal: GuessRefusal): Promise<void> {
    if ((await this.attempts.reserve(key, cost, now, rule)) !== undefined) return;
    await this.assertNotWaiting(key, now, rule, refusal);
    // The wait ended between the refusal and the read: still refused, the client may retry at once.
    throw new GuessRefused(refusal, 1);
  }

  private async assertNotWaiting(key: string, now: number, rule: ThrottleRule, refusal: GuessRefusal): Promise<void> {
    const held = await this.attempts.attempts(key, now, rule.forgetAfterMs);
    if (!held) return;
    const until = held.lastAt + this.waitAfter(held.count, rule.allowance);
    if (now < until) throw new GuessRefused(refusal, secondsUntil(until, now));
  }
}

const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
