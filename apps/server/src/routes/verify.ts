import type { FastifyInstance } from 'fastify';
import { verifyGuide } from './verify.openapi.ts';
import { CONFIRMATION_CODE, RawVerifyBody, parseSemaphoreProof, VERIFICATION_RESULT, VerifyReply, ZkVerifyBody } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { guessAdmitter, guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { verifyClaim, type Claim } from '../identity/verify-claim.ts';
import { eitherBody, typed } from '../http/typed-app.ts';

/**
 * POST /verify, with a Semaphore proof bound to a one-time challenge (zero-knowledge), or with the
 * specification's raw `bio_info`, for which the server derives the commitment and looks it up.
 * 200 with "Success" or "Failure"; a 4xx only for a malformed request, or a 429 while a client must wait
 * after repeated failures (GuessBudget). The request is checked here, then `verifyClaim` admits and
 * evaluates it: a malformed request spends no attempt.
 */
export function verifyRoute(app: FastifyInstance, deps: AppDeps) {
  const api = typed(app);
  api.post(
    '/verify',
    {
      bodyLimit: RAW_BODY_LIMIT,
      ...guessLimited(deps.limits),
      schema: { 'x-guide': verifyGuide, body: eitherBody('proof', ZkVerifyBody, RawVerifyBody), response: { 200: VerifyReply } },
    },
    async (request) => {
      const { body } = request;
      const claim: Claim =
        'proof' in body ? { proof: parseSemaphoreProof(body.proof) } : { bioInfo: normaliseField(body.bio_info, 'bio_info') };
      const admit = guessAdmitter(request, deps.limits, deps.oprfNodes);
      const { verdict, confirmationCode } = await verifyClaim(deps, admit, claim, body.session, request.ip);
      // The phone that completed a session shows its code, for the screen's person to type (decision 035).
      return {
        [VERIFICATION_RESULT]: verdict,
        ...(confirmationCode === undefined ? {} : { [CONFIRMATION_CODE]: confirmationCode }),
      };
    },
  );
}
