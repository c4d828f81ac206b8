import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { signInMessage } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { proveMembership } from '../../prover/prove-membership.ts';

/**
 * Sign in with ZeroID (decision 023): a membership proof (`proveMembership`) with the scope of the
 * site's sector and a message that binds the server's one-time challenge to this sign-in, so the
 * proof's nullifier is the person's pseudonym at that site. Undefined when the biometric is not
 * registered (not in its bucket): nothing is proven and the site hears access_denied.
 */
export function proveSignIn(
  input: { bioInfo: string; uid: string; scope: string; challenge: string },
  progress: (p: Progress) => void,
): Promise<SemaphoreProof | undefined> {
  const binding = { message: signInMessage(input.challenge, input.uid), scope: input.scope };
  return proveMembership(input.bioInfo, () => Promise.resolve(binding), progress);
}
