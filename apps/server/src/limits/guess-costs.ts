import type { GuessCost } from './guess-budget.ts';

/** What a request evaluates: nothing, one OPRF evaluation, a verification, or a raw registration. */
export const NO_GUESS: GuessCost = { guesses: 0, verification: false };
export const OPRF_EVALUATION: GuessCost = { guesses: 1, verification: false };
export const RAW_REGISTRATION: GuessCost = { guesses: 2, verification: false };
export const RAW_VERIFICATION: GuessCost = { guesses: 1, verification: true };
export const PROOF_VERIFICATION: GuessCost = { guesses: 0, verification: true };
/** A raw erasure evaluates the OPRF twice (ID and biometric) and is judged like a verification. */
export const RAW_ERASURE: GuessCost = { guesses: 2, verification: true };
