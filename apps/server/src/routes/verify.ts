import type { FastifyInstance } from 'fastify';
import {
  CONFIRMATION_CODE,
  LegacyVerifyBody,
  parseSemaphoreProof,
  VERIFICATION_RESULT,
  VerifyReply,
  ZkVerifyBody,
  type Static,
  type WireSemaphoreProof,
} from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { membershipCheckDeps } from './membership-check-deps.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { admitGuess, givingBackOnNodeFailure, guessLimited, PROOF_VERIFICATION, RAW_VERIFICATION } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { verifyMembershipProof, type ProofVerdict } from '../proofs/verify-membership-proof.ts';
import { sessionIsOpen, settleSession } from '../sessions/settle-session.ts';

type Body = Static<typeof LegacyVerifyBody> | Static<typeof ZkVerifyBody>;
/** A request checked to be well formed: a parsed proof, or a normalised biometric. */
type Claim = { proof: WireSemaphoreProof; bioInfo?: never } | { bioInfo: string; proof?: never };

/**
 * POST /verify, with a Semaphore proof bound to a one-time challenge (zero-knowledge), or with the
 * specification's raw `bio_info`, for which the server derives the commitment and looks it up.
 * 200 with "Success" or "Failure"; a 4xx only for a malformed request, or a 429 while a client must wait
 * after repeated failures (AttemptLimits). The request is checked first, then admitted (reserving a
 * failure, given back on Success), then evaluated: a malformed request spends no attempt, and no
 * number of concurrent requests gets more evaluations than the throttle allows.
 */
export function verifyRoute(app: FastifyInstance, deps: AppDeps) {
  const { deriver, storage, limits, metrics } = deps;
  app.post<{ Body: Body }>(
    '/verify',
    {
      bodyLimit: RAW_BODY_LIMIT,
      ...guessLimited(limits),
      schema: {
        body: { if: { type: 'object', required: ['proof'] }, then: ZkVerifyBody, else: LegacyVerifyBody },
        response: { 200: VerifyReply },
      },
    },
    async (request) => {
      const { body } = request;
      const claim: Claim =
        'proof' in body ? { proof: parseSemaphoreProof(body.proof) } : { bioInfo: normaliseField(body.bio_info, 'bio_info') };
      const admission = await admitGuess(request, limits, claim.proof ? PROOF_VERIFICATION : RAW_VERIFICATION, deps.oprfNodes);
      const verdicts = givingBackOnNodeFailure(admission, verdictFor(claim, body.session, request.ip));
      const { verdict, confirmationCode } = await verdicts.catch(async (error: unknown) => {
        await admission.releaseVerification();
        throw error;
      });
      // A stale proof (its root left the window) was never checked, so it is no failed guess.
      if (verdict !== 'Failure') await admission.releaseVerification();
      // The phone that completed a session shows its code, for the screen's person to type (decision 035).
      return {
        [VERIFICATION_RESULT]: verdict === 'Stale' ? 'Failure' : verdict,
        ...(confirmationCode === undefined ? {} : { [CONFIRMATION_CODE]: confirmationCode }),
      };
    },
  );

  async function verdictFor(
    claim: Claim,
    session: string | undefined,
    client: string,
  ): Promise<{ verdict: ProofVerdict; confirmationCode?: string }> {
    if (!(await sessionIsOpen(storage, session))) return { verdict: 'Failure' };
    if (claim.proof) {
      const verdict = await verifyMembershipProof(membershipCheckDeps(deps), claim.proof, session);
      if (verdict === 'Stale') {
        metrics.verifications.inc({ mode: 'zk', result: 'Failure' });
        return { verdict };
      }
      const settled = await settleSession(storage, session, verdict);
      metrics.verifications.inc({ mode: 'zk', result: settled.verdict });
      return settled;
    }
    const commitment = await deriver.commitment(claim.bioInfo, client);
    metrics.oprfEvaluations.inc({ kind: 'direct' });
    const found = (await storage.identities.findByCommitment(commitment)) !== undefined;
    const settled = await settleSession(storage, session, found ? 'Success' : 'Failure');
    metrics.verifications.inc({ mode: 'raw', result: settled.verdict });
    return settled;
  }
}
