import type { GuessCost } from './guess-budget.ts';

/** What a request evaluates: nothing, one OPRF evaluation, a verification, or a registration. */
export const NO_GUESS: GuessCost = { guesses: 0, verification: false };
export const OPRF_EVALUATION: GuessCost = { guesses: 1, verification: false };
/**
 * A registration, on either path: two guesses. The raw path evaluates the OPRF twice; a v3
 * zero-knowledge registration is charged the same at POST /register (decision 061), since a finished
 * round can be re-blinded and reused without a new one, so its OPRF rounds alone would not bound it.
 */
export const REGISTRATION: GuessCost = { guesses: 2, verification: false };
/**
 * A noisy registration (decision 084): two guesses, and one failure under the failed-verification
 * throttle whatever it answers, for its "already registered" tells whether an eye is anyone's, as a
 * verification would.
 */
export const NOISY_REGISTRATION: GuessCost = { guesses: 2, verification: true };
export const RAW_VERIFICATION: GuessCost = { guesses: 1, verification: true };
export const PROOF_VERIFICATION: GuessCost = { guesses: 0, verification: true };
/** A raw erasure evaluates the OPRF twice (ID and biometric) and is judged like a verification. */
export const RAW_ERASURE: GuessCost = { guesses: 2, verification: true };
