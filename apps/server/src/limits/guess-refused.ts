/** Why a client's guess was refused before anything was evaluated. */
export type GuessRefusal =
  /** This client must wait after repeated failed verifications. */
  | 'TOO_MANY_FAILURES'
  /** This client has spent its guess budget for now (OPRF evaluations on any route). */
  | 'TOO_MANY_GUESSES'
  /** All clients together have spent this minute's global budget. */
  | 'RATE_LIMITED';

const MESSAGES: Record<GuessRefusal, string> = {
  TOO_MANY_FAILURES: 'Too many failed verifications. Please try again in',
  TOO_MANY_GUESSES: 'Too many guesses from your network. Please try again in',
  RATE_LIMITED: 'The service is busy. Please try again in',
};

/** A guess refused by the guess limits; the HTTP layer answers it 429 with Retry-After. */
export class GuessRefused extends Error {
  constructor(
    readonly code: GuessRefusal,
    readonly retryAfterSeconds: number,
  ) {
    super(`${MESSAGES[code]} ${retryAfterSeconds} seconds.`);
    this.name = 'GuessRefused';
  }
}
