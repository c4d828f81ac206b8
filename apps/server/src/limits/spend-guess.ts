import type { Admission, GuessCost } from './guess-budget.ts';

/**
 * Admits one client's request about to evaluate `cost`, or throws GuessRefused. The HTTP layer
 * binds it to the request's client (`guessAdmitter`), so a use case spends guesses without knowing
 * where they came from.
 */
export type AdmitGuess = (cost: GuessCost) => Promise<Admission>;

/**
 * Runs one evaluation under the guess budget (decisions 013 and 032): the reserved failure is kept
 * only when `failedGuess(outcome)` says the evaluation answered a guess wrongly (a wrong biometric).
 * Any other outcome gives it back: a Success, and a verdict that learnt nothing (a stale proof), as
 * does an error, for an evaluation that never finished taught the client nothing either.
 */
export async function spendGuess<T>(
  admit: AdmitGuess,
  cost: GuessCost,
  evaluate: () => Promise<T>,
  failedGuess: (outcome: T) => boolean,
): Promise<T> {
  const admission = await admit(cost);
  let outcome: T;
  try {
    outcome = await evaluate();
  } catch (error) {
    await admission.releaseVerification();
    throw error;
  }
  if (!failedGuess(outcome)) await admission.releaseVerification();
  return outcome;
}
