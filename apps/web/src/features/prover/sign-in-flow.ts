import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { signInMessage, type MembersReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { provingArtifacts } from './artifact-cache.ts';
import { proveMembership } from './prove-membership.ts';
import { warmUpCurve } from './warm-up-curve.ts';

/**
 * Starts what a sign-in needs before the biometric is typed: the group's parameters, the proving
 * artifacts for its depth (from the Cache API after the first visit, checked against their SHA-256)
 * and the proof's curve. A sign-in screen is a fresh page with a fresh worker, so without this the
 * proof would wait for them (decision 028).
 */
export function prepareSignIn(): void {
  void warmUpCurve();
  void requestJson<MembersReply>(apiUrls.members()).then(
    (p) => provingArtifacts(p.depth),
    () => undefined,
  );
}

/**
 * Sign in with ZeroID (decision 023): a membership proof (`proveMembership`) with the scope of the
 * site's sector and a message that binds the server's one-time challenge to this sign-in, so the
 * proof's nullifier is the person's pseudonym at that site. Undefined when the biometric is not
 * registered (not in its bucket): nothing is proven and the site hears access_denied.
 */
export function signInFlow(
  input: { bioInfo: string; uid: string; scope: string; challenge: string },
  progress: (p: Progress) => void,
): Promise<SemaphoreProof | undefined> {
  const binding = { message: signInMessage(input.challenge, input.uid), scope: input.scope };
  return proveMembership(input.bioInfo, () => Promise.resolve(binding), progress);
}
