import type { FastifyInstance } from 'fastify';
import { DID_ALREADY_GENERATED, LegacyRegisterBody, RegisterReply, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app.ts';
import { guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { deriveFromRaw } from '../services/raw-identity.ts';

const RAW_BODY_LIMIT = 64 * 1024;

/**
 * POST /register. The reply is 200 whatever the verdict: the specification's client reads only the
 * body of a successful reply. An existing identity's data is never echoed.
 */
export function registerRoute(app: FastifyInstance, { oprf, storage, registry, limits }: AppDeps) {
  app.post<{ Body: Static<typeof LegacyRegisterBody> }>(
    '/register',
    {
      bodyLimit: RAW_BODY_LIMIT,
      schema: { body: LegacyRegisterBody, response: { 200: RegisterReply } },
      ...guessLimited(limits),
    },
    async (request) => {
      const idInfo = normaliseField(request.body.id_info, 'id_info');
      const bioInfo = normaliseField(request.body.bio_info, 'bio_info');
      const derived = await deriveFromRaw(oprf, { idInfo, bioInfo });
      const outcome = await storage.identities.register(derived);
      if (!outcome.inserted) return { [DID_ALREADY_GENERATED]: true };
      await registry.catchUp();
      return { [DID_ALREADY_GENERATED]: false, DID: derived.did };
    },
  );
}
