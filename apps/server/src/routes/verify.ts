import type { FastifyInstance } from 'fastify';
import { LegacyVerifyBody, VERIFICATION_RESULT, VerifyReply, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { commitmentFromRawBio } from '../services/raw-identity.ts';

const RAW_BODY_LIMIT = 64 * 1024;

/** POST /verify. 200 with "Success" or "Failure"; a 4xx only for a malformed request. */
export function verifyRoute(app: FastifyInstance, { oprf, storage, limits }: AppDeps) {
  app.post<{ Body: Static<typeof LegacyVerifyBody> }>(
    '/verify',
    {
      bodyLimit: RAW_BODY_LIMIT,
      schema: { body: LegacyVerifyBody, response: { 200: VerifyReply } },
      ...guessLimited(limits),
    },
    async (request) => {
      const commitment = await commitmentFromRawBio(oprf, normaliseField(request.body.bio_info, 'bio_info'));
      const known = await storage.identities.findByCommitment(commitment);
      return { [VERIFICATION_RESULT]: known ? 'Success' : 'Failure' };
    },
  );
}
