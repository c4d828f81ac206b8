import type { SignInRetryReply } from '@zeroid/protocol';
import { issueChallenge, type ChallengeServices } from '../proofs/challenges.ts';

/**
 * A try that did not sign the person in (decision 051): the interaction keeps waiting, and the next
 * try gets a fresh challenge (a refused proof consumed its own). What bounds the tries is the
 * client's budget (every try spends an OPRF evaluation and a failed verification), not the
 * interaction: a script that opens a new one per guess spends the same budget.
 */
export async function anotherSignInTry(services: ChallengeServices): Promise<SignInRetryReply> {
  const { challenge, expiresAt } = await issueChallenge(services);
  return { result: 'Failure', challenge, expiresAt };
}
