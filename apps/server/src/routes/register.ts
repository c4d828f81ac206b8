import type { FastifyInstance } from 'fastify';
import { DID_ALREADY_GENERATED, RawRegisterBody, RegisterReply, ZkRegisterBody } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { guessAdmitter, guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { registerClaim, type RegistrationRequest } from '../identity/register-claim.ts';
import { signedRegistration } from '../identity/register-commitment.ts';
import { eitherBody, typed } from '../http/typed-app.ts';

/**
 * POST /register, in either of two bodies: the zero-knowledge one (`commitment`, `idTag`, `did`,
 * `challenge`, `signatures`), or the specification's raw one (`id_info`, `bio_info`), for which the
 * server derives on the client's behalf and drops the raw values. The reply is 200 whatever the
 * verdict, and an existing identity's data is never echoed. The body is checked here, before
 * `registerClaim` admits the attempt: a malformed registration spends nothing.
 */
export function registerRoute(app: FastifyInstance, deps: AppDeps) {
  const api = typed(app);
  api.post(
    '/register',
    {
      bodyLimit: RAW_BODY_LIMIT,
      ...guessLimited(deps.limits),
      schema: {
        body: eitherBody('commitment', ZkRegisterBody, RawRegisterBody),
        response: { 200: RegisterReply },
      },
    },
    async (request) => {
      const { body } = request;
      let registration: RegistrationRequest;
      if ('commitment' in body) {
        const { signatures, ...fields } = body;
        registration = { signed: signedRegistration(fields, signatures) };
      } else {
        registration = { idInfo: normaliseField(body.id_info, 'id_info'), bioInfo: normaliseField(body.bio_info, 'bio_info') };
      }
      const { did } = await registerClaim(deps, guessAdmitter(request, deps.limits, deps.oprfNodes), registration, request.ip);
      return did === undefined ? { [DID_ALREADY_GENERATED]: true as const } : { [DID_ALREADY_GENERATED]: false as const, DID: did };
    },
  );
}
