import { Problem } from '../problem.ts';

/** Noisy requests one derivation thread takes on at once: the one it runs and one waiting its turn. */
export const NOISY_REQUESTS_PER_THREAD = 2;
/** How far Retry-After may say to wait, in seconds. */
const MAX_RETRY_AFTER_S = 30;

/** A bound on the noisy requests a process holds at once (decision 084). */
export interface NoisyGate {
  /** Runs `work` when fewer than the gate's capacity are held, or throws a 503 `NOISY_BUSY` at once. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * At most `capacity` noisy requests held at once in this process, running or waiting for a
 * derivation thread; the next is refused at once with 503 `NOISY_BUSY` and Retry-After (as threshold
 * mode's `OPRF_BUSY`, decision 075). A noisy request holds a thread for 4 to 25 s, so a queue without
 * a bound let accepted requests outlive the 60 s the connection is allowed: the client got a closed
 * socket and no answer. The use cases enter the gate before the guess limits admit the request, so a
 * refusal spends no guess and no failure.
 */
export function noisyGate(capacity: number): NoisyGate {
  let held = 0;
  /** A moving average of one request's duration, in ms, for Retry-After. */
  let typicalMs = 5_000;
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (held >= capacity) {
        const retryAfter = Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(typicalMs / 1000)));
        throw new Problem(
          503,
          'NOISY_BUSY',
          'Too many biometric readings are being checked right now. Nothing was saved and no attempt was counted; please try again in a moment.',
          { 'retry-after': String(retryAfter) },
        );
      }
      held++;
      const started = performance.now();
      try {
        return await work();
      } finally {
        held--;
        typicalMs = 0.8 * typicalMs + 0.2 * (performance.now() - started);
      }
    },
  };
}
