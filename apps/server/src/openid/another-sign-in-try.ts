import type { SignInRetryReply } from '@zeroid/protocol';
import { admitWithoutEvaluation } from '../limits/admit-without-evaluation.ts';
import { PROOF_VERIFICATION } from '../limits/guess-costs.ts';
import type { AdmitGuess } from '../limits/spend-guess.ts';
import { issueChallenge, type ChallengeServices } from '../proofs/challenges.ts';

/**
 * A try that did not sign the person in (decision 051): the interaction keeps waiting, and the next
 * try gets a fresh challenge (a refused proof consumed its own). What bounds the tries is the
 * client's budget (every try spends an OPRF evaluation and a failed verification), not the
 * interaction: a script that opens a new one per guess spends the same budget.
 *
 * `admit` is given when the screen reports a biometric it found not registered: nothing was proven,
 * but the try was a guess, so it counts as a failed verification as a refused proof would (the
 * reservation is kept), under the same throttle: past it, a 429 with Retry-After.
 */
export async function anotherSignInTry(services: ChallengeServices, admit?: AdmitGuess): Promise<SignInRetryReply> {
  if (admit) await admitWithoutEvaluation(admit, PROOF_VERIFICATION);
  const { challenge, expiresAt } = await issueChallenge(services);
  return { result: 'Failure', challenge, expiresAt };
}
