import { sessionMessage, type ChallengeReply, type VerifyReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { proveMembership } from '../../prover/prove-membership.ts';

const FAILURE: VerifyReply = { 'Verification Result': 'Failure' };

/**
 * Zero-knowledge verification (DESIGN §3): a membership proof (`proveMembership`) whose message and
 * scope are a one-time challenge, fetched while the identity is derived, sent to POST /verify.
 */
export async function proveVerification(
  input: { bioInfo: string; session?: string | undefined },
  progress: (p: Progress) => void,
): Promise<VerifyReply> {
  const { session } = input;
  const membership = await proveMembership(
    input.bioInfo,
    async () => {
      const { challenge } = await requestJson<ChallengeReply>(apiUrls.challenge(), { method: 'POST' });
      // For a cross-device session the message also binds the session, so the proof completes only it.
      return { message: session === undefined ? challenge : sessionMessage(challenge, session), scope: challenge };
    },
    progress,
  );
  if (!membership) {
    // Not registered, known here without a proof: tell the session, so the screen that showed the
    // code stops waiting at once. It learns only "failure", as it would from a failed proof.
    if (session !== undefined) await requestJson(apiUrls.sessionFailure(session), { method: 'POST' }).catch(() => undefined);
    return FAILURE;
  }
  const { proof } = membership;
  progress({ stage: 'sending' });
  return requestJson<VerifyReply>(apiUrls.verify(), { method: 'POST', body: session === undefined ? { proof } : { proof, session } });
}
