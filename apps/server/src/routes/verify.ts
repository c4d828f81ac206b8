import type { FastifyInstance } from 'fastify';
import { verifyGuide } from './verify.openapi.ts';
import { CONFIRMATION_CODE, RawVerifyBody, parseSemaphoreProof, VERIFICATION_RESULT, VerifyReply, ZkVerifyBody } from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import type { Claim } from '../identity/verify-claim.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { eitherBody, typed } from '../http/typed-app.ts';
import { readNoisyBio } from '../noisy/read-noisy-bio.ts';

/**
 * POST /verify, with a Semaphore proof bound to a one-time challenge (zero-knowledge), or with the
 * specification's raw `bio_info`, for which the server derives the commitment and looks it up.
 * 200 with "Success" or "Failure"; a 4xx only for a malformed request, or a 429 while a client must wait
 * after repeated failures (GuessBudget). The request is checked here, then `verifyClaim` admits and
 * evaluates it: a malformed request spends no attempt.
 */
export function verifyRoute(app: FastifyInstance, deps: RouteDeps) {
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
      const claim: Claim = 'proof' in body ? { proof: parseSemaphoreProof(body.proof) } : rawClaim(deps, body.bio_info);
      const admit = guessAdmitter(deps.limits, guessClient(request), deps.oprfNodes);
      const { verdict, confirmationCode } = await deps.useCases.verifyClaim(admit, claim, body.session, request.ip);
      // The phone that completed a session shows its code, for the screen's person to type (decision 035).
      return {
        [VERIFICATION_RESULT]: verdict,
        ...(confirmationCode === undefined ? {} : { [CONFIRMATION_CODE]: confirmationCode }),
      };
    },
  );
}

/** The raw biometric, normalised, and read as a noisy template when the experimental flag is on and it is one (decision 084). */
function rawClaim(deps: RouteDeps, bioInfo: string): Claim {
  const normalised = normaliseField(bioInfo, 'bio_info');
  const noisy = readNoisyBio(deps.config, normalised);
  return noisy ? { bioInfo: normalised, noisy } : { bioInfo: normalised };
}
