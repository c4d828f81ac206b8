import type { FastifyInstance } from 'fastify';
import { registerGuide } from './register.openapi.ts';
import { Type } from '@sinclair/typebox';
import { DID_ALREADY_GENERATED, RawRegisterBody, REPLACED_DID, RegisterReply } from '@zeroid/protocol';
import { ZkRegisterV3Body } from '@zeroid/protocol/v3';
import type { RouteDeps } from '../route-use-cases.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import { checkRegistrationV3, type V3Evaluator } from '../identity/check-registration-v3.ts';
import { checkCredentialRegistration } from '../identity/check-credential-registration.ts';
import type { RegistrationRequest } from '../identity/register-claim.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { signedErasure } from '../identity/erase-identity.ts';
import { badRequest, Problem } from '../problem.ts';
import { registrationId } from '../credentials/credential-id.ts';
import { eitherBody, typed } from '../http/typed-app.ts';
import { readNoisyBio } from '../noisy/read-noisy-bio.ts';

/**
 * The v2 zero-knowledge body, told by its `signatures`: refused whatever else it holds (decision 056),
 * so it is matched loosely and never described as a body to send.
 */
const ZkRegisterV2Body = Type.Object(
  { signatures: Type.Unknown() },
  { description: 'The v2 zero-knowledge body (with `signatures`): refused with PROTOCOL_V2_REGISTRATION_CLOSED since protocol v3.' },
);

const v2Closed = () =>
  new Problem(
    400,
    'PROTOCOL_V2_REGISTRATION_CLOSED',
    'Registration now proves every value (protocol v3), and this app still registers the old way. Please reload the app and register again.',
  );

/** With `REQUIRE_CREDENTIAL`, a proven registration must prove a credential (decision 085). */
const provenCredentialRequired = () =>
  badRequest(
    'CREDENTIAL_REQUIRED',
    'This server registers only IDs vouched for by a trusted issuer: paste the credential your issuer gave you as the ID, and the app proves it without sending it (GET /issuers lists the issuers).',
  );

/**
 * POST /register, in either of two bodies: the zero-knowledge one, protocol v3 since decision 056
 * (`commitment`, `idTag`, `did`, `challenge`, the two OPRF rounds, a Groth16 `proof` and the DID's
 * signature: `ZkRegisterV3Body`; with `credential`, a proof of the credential circuit, decision 085),
 * or the specification's raw one (`id_info`, `bio_info`), for which
 * the server derives on the client's behalf and drops the raw values; a credential as `id_info` is
 * checked first (signature, trust, expiry: `registrationId`, decision 079). A v2 zero-knowledge body (with
 * `signatures`) is refused: nothing proved where its values came from. The reply is 200 whatever
 * the verdict, and an existing identity's data is never echoed. The cheap checks run here, before
 * `registerClaim` admits the registration's guesses: a malformed registration spends nothing.
 */
export function registerRoute(app: FastifyInstance, deps: RouteDeps) {
  const api = typed(app);
  api.post(
    '/register',
    {
      bodyLimit: RAW_BODY_LIMIT,
      ...guessLimited(deps.limits),
      schema: {
        'x-guide': registerGuide,
        body: eitherBody('signatures', ZkRegisterV2Body, eitherBody('commitment', ZkRegisterV3Body, RawRegisterBody)),
        response: { 200: RegisterReply },
      },
    },
    async (request) => {
      const { body } = request;
      let registration: RegistrationRequest;
      if ('signatures' in body) throw v2Closed();
      if ('commitment' in body) {
        const { moveFromV2, credential, ...registered } = body;
        if (!credential && deps.config.requireCredential) throw provenCredentialRequired();
        const proven = credential
          ? checkCredentialRegistration({ ...registered, credential }, v3Evaluator(deps), deps.config, new Date())
          : checkRegistrationV3(registered, v3Evaluator(deps));
        // A move (decision 073): the v2 identity's signatures are checked here too, before anything is spent.
        const from = moveFromV2 && signedErasure({ ...moveFromV2, challenge: body.challenge }, moveFromV2.signatures);
        registration = from ? { proven, moveFromV2: { commitment: from.commitment, idTag: from.idTag } } : { proven };
      } else {
        const id = registrationId(normaliseField(body.id_info, 'id_info'), deps.config, new Date());
        const bioInfo = normaliseField(body.bio_info, 'bio_info');
        const noisy = readNoisyBio(deps.config, bioInfo);
        registration = { ...id, bioInfo, ...(noisy ? { noisy } : {}) };
      }
      const admit = guessAdmitter(deps.limits, guessClient(request), deps.oprfNodes);
      const { did, replacedDid } = await deps.useCases.registerClaim(admit, registration, request.ip);
      if (did === undefined) return { [DID_ALREADY_GENERATED]: true as const };
      if (replacedDid === undefined) return { [DID_ALREADY_GENERATED]: false as const, DID: did };
      return { [DID_ALREADY_GENERATED]: false as const, DID: did, [REPLACED_DID]: replacedDid };
    },
  );
}

/** Where a v3 registration's Z comes from: this process's key, or the nodes' v3 keys as last read. */
const v3Evaluator = ({ oprfV3, oprfNodes }: RouteDeps): V3Evaluator => (oprfV3 ? { key: oprfV3 } : { nodes: oprfNodes?.current?.v3 });
