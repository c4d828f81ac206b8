import type { FastifyInstance } from 'fastify';
import { LegacyVerifyBody, VERIFICATION_RESULT, VerifyReply, ZkVerifyBody, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { verifyMembershipProof, type ProofVerdict } from '../services/verify-membership-proof.ts';
import { sessionIsOpen, settleSession } from '../services/settle-session.ts';

type Body = Static<typeof LegacyVerifyBody> | Static<typeof ZkVerifyBody>;

/**
 * POST /verify, with a Semaphore proof bound to a one-time challenge (zero-knowledge), or with the
 * specification's raw `bio_info`, for which the server derives the commitment and looks it up.
 * 200 with "Success" or "Failure"; a 4xx only for a malformed request, or a 429 while a client must wait
 * after repeated failures (AttemptLimits).
 */
export function verifyRoute(app: FastifyInstance, { deriver, proofVerifier, storage, registry, config, limits, metrics }: AppDeps) {
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
      await limits.attempts.assertMayVerify(request.ip);
      const verdict = await verdictFor(request.body);
      // A stale proof (its root left the window) was never checked, so it is no failed guess.
      if (verdict === 'Failure') await limits.attempts.recordFailedVerification(request.ip);
      return { [VERIFICATION_RESULT]: verdict === 'Stale' ? 'Failure' : verdict };
    },
  );

  async function verdictFor(body: Body): Promise<ProofVerdict> {
    if (!(await sessionIsOpen(storage, body.session))) return 'Failure';
    if ('proof' in body) {
      const verdict = await verifyMembershipProof(
        {
          storage,
          registry,
          verifier: proofVerifier,
          rootWindowMs: config.rootWindowMs,
          observePairing: (seconds) => metrics.proofVerificationSeconds.observe(seconds),
        },
        body.proof,
        body.session,
      );
      if (verdict === 'Stale') {
        metrics.verifications.inc({ mode: 'zk', result: 'Failure' });
        return verdict;
      }
      const settled = await settleSession(storage, body.session, verdict);
      metrics.verifications.inc({ mode: 'zk', result: settled });
      return settled;
    }
    const commitment = await deriver.commitment(normaliseField(body.bio_info, 'bio_info'));
    metrics.oprfEvaluations.inc({ kind: 'direct' });
    const found = (await storage.identities.findByCommitment(commitment)) !== undefined;
    const verdict = await settleSession(storage, body.session, found ? 'Success' : 'Failure');
    metrics.verifications.inc({ mode: 'raw', result: verdict });
    return verdict;
  }
}
