import type { GuessCost } from './guess-budget.ts';
import { NO_GUESS } from './guess-costs.ts';
import type { AdmitGuess } from './spend-guess.ts';

/**
 * Admits a request that evaluates nothing here, `spendGuess`'s sibling: what it takes is kept, for
 * the request is the guess itself (a failure the screen reports, an admission the nodes will evaluate
 * under) or tests none (`NO_GUESS`: a member list, refused while the client waits after failures).
 * Throws GuessRefused (a 429) as `spendGuess` does.
 */
export async function admitWithoutEvaluation(admit: AdmitGuess, cost: GuessCost = NO_GUESS): Promise<void> {
  await admit(cost);
}
