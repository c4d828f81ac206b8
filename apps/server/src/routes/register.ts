import type { FastifyInstance } from 'fastify';
import { DID_ALREADY_GENERATED, LegacyRegisterBody, RegisterReply, ZkRegisterBody, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { admitGuess, givingBackOnNodeFailure, guessLimited, NO_GUESS, RAW_REGISTRATION } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { registerCommitment, signedRegistration } from '../identity/register-commitment.ts';

type Body = Static<typeof LegacyRegisterBody> | Static<typeof ZkRegisterBody>;

/**
 * POST /register, in either of two bodies: the zero-knowledge one (`commitment`, `idTag`, `did`,
 * `challenge`, `signatures`), or the specification's raw one (`id_info`, `bio_info`), for which the
 * server derives on the client's behalf and drops the raw values. The reply is 200 whatever the
 * verdict, and an existing identity's data is never echoed. The body is checked before the attempt
 * is admitted: a raw registration makes two OPRF evaluations, each a guess (its "already registered"
 * answers one), so it draws two from the client's guess budget; a zero-knowledge one makes none
 * (its OPRF rounds were counted at /oprf).
 */
export function registerRoute(app: FastifyInstance, { deriver, storage, registry, limits, metrics, oprfNodes }: AppDeps) {
  app.post<{ Body: Body }>(
    '/register',
    {
      bodyLimit: RAW_BODY_LIMIT,
      ...guessLimited(limits),
      schema: {
        body: { if: { type: 'object', required: ['commitment'] }, then: ZkRegisterBody, else: LegacyRegisterBody },
        response: { 200: RegisterReply },
      },
    },
    async (request) => {
      const { body } = request;
      let did: string;
      let inserted: boolean;
      if ('commitment' in body) {
        const { signatures, ...fields } = body;
        const registration = signedRegistration(fields, signatures);
        await admitGuess(request, limits, NO_GUESS);
        inserted = (await registerCommitment(storage, registration)).inserted;
        did = fields.did;
      } else {
        const idInfo = normaliseField(body.id_info, 'id_info');
        const bioInfo = normaliseField(body.bio_info, 'bio_info');
        const admission = await admitGuess(request, limits, RAW_REGISTRATION, oprfNodes);
        const derived = await givingBackOnNodeFailure(admission, deriver.registration({ idInfo, bioInfo }, request.ip));
        metrics.oprfEvaluations.inc({ kind: 'direct' }, 2);
        inserted = (await storage.identities.register(derived)).inserted;
        did = derived.did;
      }
      metrics.registrations.inc({ mode: 'commitment' in body ? 'zk' : 'raw', outcome: inserted ? 'new' : 'existing' });
      if (!inserted) return { [DID_ALREADY_GENERATED]: true };
      // The table is the truth and the registration is committed: the tree catches up in the
      // background, with the other registrations of the moment (every tree question catches up
      // first anyway), so a registration's latency does not grow with the tree's depth.
      registry.catchUpSoon();
      return { [DID_ALREADY_GENERATED]: false, DID: did };
    },
  );
}
