import { OprfNodesUnavailable } from '../oprf/nodes/evaluate-with-nodes.ts';
import type { Admission, GuessCost } from './guess-budget.ts';

/**
 * Admits one client's request about to evaluate `cost`, or throws GuessRefused. `guessAdmitter`
 * binds it to the request's client, so a use case spends guesses without knowing where they came from.
 */
export type AdmitGuess = (cost: GuessCost) => Promise<Admission>;

/**
 * Runs one evaluation of a use case under the guess limits (decisions 013 and 032), the one place
 * where what an admission took is kept or given back: the reserved failure is kept
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
    await giveBackOnNodeFailure(admission, error);
    throw error;
  }
  if (!failedGuess(outcome)) await admission.releaseVerification();
  return outcome;
}

/**
 * When an evaluation failed because the OPRF nodes gave no output (a 503, or their 429), nothing was
 * evaluated for the client, who learns nothing from the refusal: its guesses come back (decision 053).
 */
async function giveBackOnNodeFailure(admission: Admission, error: unknown): Promise<void> {
  if (error instanceof OprfNodesUnavailable) await admission.releaseGuesses();
}
