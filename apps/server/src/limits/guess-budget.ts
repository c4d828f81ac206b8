import { createHmac } from 'node:crypto';
import type { AttemptRepository, ThrottleRule, TokenBucket } from '../storage/types.ts';
import { GuessRefused } from './guess-refused.ts';

export interface GuessBudgetSettings {
  /** Guess-capable requests a minute from all clients together; 0 turns the budget off. */
  globalPerMinute: number;
  /** Failed verifications a client may have before each further one must wait; 0 turns it off. */
  failuresBeforeDelay: number;
  /** OPRF evaluations a client's full bucket holds (a burst it may spend at once); 0 turns the bucket off. */
  guessCapacity: number;
  /** The bucket gains one evaluation back every this many milliseconds. */
  guessRefillMs: number;
  /** The failure throttle's wait once a client is past `failuresBeforeDelay`; it doubles with each further failure… */
  delayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** A client's failures are forgotten once it has made no guess for this long. */
  forgetAfterMs: number;
}

/** A flow's guesses taken at once (decision 074): its later requests draw on it, not on the bucket. */
export interface Reservation {
  reservation: string;
  guesses: number;
  expiresAt: number;
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
/** How long a flow's reservation may be drawn on: a registration proven on a slow phone takes about a minute. */
export const RESERVATION_MS = 10 * 60_000;
/** The most one reservation may hold: an erasure or a registration needs 4, a verification 2. */
export const RESERVATION_MAX = 8;

/**
 * The guess budget, kept in the database, so it survives a restart and binds every process alike.
 * A request is admitted only once its input is known to be well formed, right before it evaluates
 * anything, and each limit takes before it admits (one atomic statement each), so concurrency
 * cannot slip more evaluations through than a limit allows:
 *
 * 1. the failed-verification throttle (NIST SP 800-63B-4 §3.2.2): every verification reserves a
 *    failure before it is evaluated and gives it back on Success; past `failuresBeforeDelay` (5),
 *    each further verification waits `delayMs` (30 s), doubling with each further failure up to
 *    `maxDelayMs`. A refused guess changes nothing, so one that comes back when told is heard. A
 *    client waiting here is refused on every route that evaluates a guess, not only `/verify`. A
 *    success gives back only its own reservation, never earlier failures, or an attacker could
 *    interleave their own identity's successes with guesses;
 * 2. the per-client guess bucket (decision 074): every OPRF evaluation a client causes, whatever the
 *    route, takes a token, never given back once evaluated (the server cannot tell a guess from an
 *    honest round). A full bucket holds `guessCapacity`, and it gains one back every `guessRefillMs`,
 *    continuously: a refusal takes nothing and says exactly when the tokens asked for are there. A
 *    flow that needs several evaluations takes them all at once (`reserve`), and its later requests
 *    carry the reservation, so it gets all of them or none;
 * 3. the global budget of guess-capable requests a minute, all clients together, so no number of
 *    addresses can turn the OPRF key into a fast oracle. It is spent last, so a client refused by
 *    its own limits spends none of everyone's budget; a reservation spends it for all its guesses.
 *
 * Clients are keyed by `clientKey` and stored as an HMAC under a secret derived from the OPRF key:
 * the table cannot be turned back into addresses without that key, and every process keys a client alike.
 */
export class GuessBudget {
  private readonly failureRule: ThrottleRule;
  private readonly bucket: TokenBucket;

  constructor(
    private readonly counters: AttemptRepository,
    private readonly settings: GuessBudgetSettings,
    private readonly keySecret: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {
    this.failureRule = {
      allowance: settings.failuresBeforeDelay,
      delayMs: settings.delayMs,
      maxDelayMs: settings.maxDelayMs,
      forgetAfterMs: settings.forgetAfterMs,
    };
    this.bucket = { capacity: settings.guessCapacity, refillMs: settings.guessRefillMs };
  }

  /**
   * Admits one request from `client` about to evaluate `cost`, or throws GuessRefused (nothing kept).
   * With a live `reservation` of this client holding the guesses, they are drawn from it instead of
   * the bucket and the global budget, which the reservation already spent.
   */
  async admit(client: string, cost: GuessCost, reservation?: string): Promise<Admission> {
    const now = this.now();
    const id = this.clientId(client);
    const failures = `failures:${id}`;
    const throttled = this.settings.failuresBeforeDelay > 0;
    const reservedVerification = throttled && cost.verification;
    const guesses = Math.min(cost.guesses, this.bucket.capacity);
    const budgeted = this.bucket.capacity > 0 && guesses > 0;
    const undo: Array<() => Promise<void>> = [];
    let drawn = false;
    try {
      if (reservedVerification) {
        await this.reserveFailure(failures, now);
        undo.push(() => this.counters.release(failures, 1));
      } else if (throttled && cost.guesses > 0) {
        await this.assertNotWaiting(failures, now);
      }
      if (reservation !== undefined && this.bucket.capacity > 0) {
        drawn = await this.counters.drawReservation(this.reservationKey(client, reservation), guesses, now);
      }
      if (!drawn) {
        if (budgeted) {
          await this.takeGuesses(id, guesses, now);
          undo.push(() => this.counters.giveBackTokens(this.bucketKey(id), guesses, this.bucket));
        }
        await this.spendGlobalBudget(now, 1);
      }
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
        await this.counters.release(failures, 1);
      },
      releaseGuesses: async () => {
        if (guessesReleased || cost.guesses === 0) return;
        guessesReleased = true;
        if (budgeted) await this.counters.giveBackTokens(this.bucketKey(id), guesses, this.bucket);
        if (!drawn && this.settings.globalPerMinute > 0) await this.counters.uncountInWindow(GLOBAL_KEY, now - (now % WINDOW_MS));
      },
    };
  }

  /**
   * Takes a flow's `guesses` at once (at most the bucket's capacity and `RESERVATION_MAX`), with as
   * much of the global budget, and returns the reservation its later requests carry; or throws
   * GuessRefused and takes nothing. A client waiting on the failure throttle is refused here too,
   * so a flow never starts that a later request of it would have to stop.
   */
  async reserve(client: string, guesses: number, random: () => string): Promise<Reservation> {
    const now = this.now();
    const id = this.clientId(client);
    const units = Math.min(guesses, RESERVATION_MAX, this.bucket.capacity || RESERVATION_MAX);
    const reservation = random();
    const expiresAt = now + RESERVATION_MS;
    if (this.bucket.capacity === 0) return { reservation, guesses: units, expiresAt };
    if (this.settings.failuresBeforeDelay > 0) await this.assertNotWaiting(`failures:${id}`, now);
    await this.takeGuesses(id, units, now);
    try {
      await this.spendGlobalBudget(now, units);
    } catch (error) {
      await this.counters.giveBackTokens(this.bucketKey(id), units, this.bucket);
      throw error;
    }
    await this.counters.openReservation(this.reservationKey(client, reservation), units, expiresAt);
    return { reservation, guesses: units, expiresAt };
  }

  /**
   * Ends a reservation and puts what it still held back in the bucket: those guesses were never
   * evaluated, so giving them back teaches nothing. Returns how many came back.
   */
  async release(client: string, reservation: string): Promise<number> {
    if (this.bucket.capacity === 0) return 0;
    const unused = await this.counters.closeReservation(this.reservationKey(client, reservation), this.now());
    if (unused > 0) await this.counters.giveBackTokens(this.bucketKey(this.clientId(client)), unused, this.bucket);
    return unused;
  }

  /** How long a client waits after `count` failures when `failuresBeforeDelay` of them cost no wait. */
  waitAfter(count: number, failuresBeforeDelay: number = this.settings.failuresBeforeDelay): number {
    const beyond = count - failuresBeforeDelay;
    if (beyond < 0) return 0;
    return Math.min(this.settings.maxDelayMs, this.settings.delayMs * 2 ** Math.min(beyond, 30));
  }

  /** The key a client's counters are stored under: a keyed hash, never the address. */
  clientId(client: string): string {
    return createHmac('sha256', this.keySecret).update(`zeroid/attempts/v2:${client}`).digest('base64url');
  }

  private bucketKey(id: string): string {
    return `bucket:${id}`;
  }

  /** A reservation is bound to its client: carried from another address, it draws nothing. */
  private reservationKey(client: string, reservation: string): string {
    return `reservation:${createHmac('sha256', this.keySecret).update(`zeroid/reservation/v1:${client}:${reservation}`).digest('base64url')}`;
  }

  private async takeGuesses(id: string, guesses: number, now: number): Promise<void> {
    const taken = await this.counters.takeTokens(this.bucketKey(id), guesses, now, this.bucket);
    if (!taken.taken) throw new GuessRefused('TOO_MANY_GUESSES', Math.max(1, Math.ceil(taken.waitMs / 1000)));
  }

  private async spendGlobalBudget(now: number, cost: number): Promise<void> {
    if (this.settings.globalPerMinute === 0) return;
    const windowStart = now - (now % WINDOW_MS);
    for (let counted = 1; counted <= cost; counted++) {
      const count = await this.counters.countInWindow(GLOBAL_KEY, windowStart, now);
      if (count <= this.settings.globalPerMinute) continue;
      // Over-budget requests are not counted, so the count stays the number of requests admitted.
      for (let i = 0; i < counted; i++) await this.counters.uncountInWindow(GLOBAL_KEY, windowStart);
      throw new GuessRefused('RATE_LIMITED', secondsUntil(windowStart + WINDOW_MS, now));
    }
  }

  private async reserveFailure(key: string, now: number): Promise<void> {
    if ((await this.counters.reserve(key, 1, now, this.failureRule)) !== undefined) return;
    await this.assertNotWaiting(key, now);
    // The wait ended between the refusal and the read: still refused, the client may retry at once.
    throw new GuessRefused('TOO_MANY_FAILURES', 1);
  }

  private async assertNotWaiting(key: string, now: number): Promise<void> {
    const held = await this.counters.attempts(key, now, this.failureRule.forgetAfterMs);
    if (!held) return;
    const until = held.lastAt + this.waitAfter(held.count);
    if (now < until) throw new GuessRefused('TOO_MANY_FAILURES', secondsUntil(until, now));
  }
}

const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
