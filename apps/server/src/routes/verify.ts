import type { FastifyInstance } from 'fastify';
import { LegacyVerifyBody, VERIFICATION_RESULT, VerifyReply, ZkVerifyBody, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { commitmentFromRawBio } from '../services/raw-identity.ts';
import { verifyMembershipProof } from '../services/verify-membership-proof.ts';
import { sessionIsOpen, settleSession } from '../services/settle-session.ts';

type Body = Static<typeof LegacyVerifyBody> | Static<typeof ZkVerifyBody>;

/**
 * POST /verify, with a Semaphore proof bound to a one-time challenge (zero-knowledge), or with the
 * specification's raw `bio_info`, for which the server derives the commitment and looks it up.
 * 200 with "Success" or "Failure"; a 4xx only for a malformed request.
 */
export function verifyRoute(app: FastifyInstance, { oprf, storage, registry, config, limits, metrics }: AppDeps) {
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
      const body = request.body;
      if (!(await sessionIsOpen(storage, body.session))) return { [VERIFICATION_RESULT]: 'Failure' };
      if ('proof' in body) {
        const verdict = await verifyMembershipProof(
          {
            storage,
            registry,
            rootWindowMs: config.rootWindowMs,
            observePairing: (seconds) => metrics.proofVerificationSeconds.observe(seconds),
          },
          body.proof,
          body.session,
        ).then((result) => settleSession(storage, body.session, result));
        metrics.verifications.inc({ mode: 'zk', result: verdict });
        return { [VERIFICATION_RESULT]: verdict };
      }
      const commitment = await commitmentFromRawBio(oprf, normaliseField(body.bio_info, 'bio_info'));
      metrics.oprfEvaluations.inc({ kind: 'direct' });
      const result = await settleSession(
        storage,
        body.session,
        (await storage.identities.findByCommitment(commitment)) ? 'Success' : 'Failure',
      );
      metrics.verifications.inc({ mode: 'raw', result });
      return { [VERIFICATION_RESULT]: result };
    },
  );
}
