import type { FastifyInstance } from 'fastify';
import { eraseGuide, signInScopesGuide } from './erase.openapi.ts';
import { ERASURE_RESULT, EraseReply, RawEraseBody, SignInScopesReply, ZkEraseBody } from '@zeroid/protocol';
import { ZkEraseV3Body } from '@zeroid/protocol/v3';
import type { RouteDeps } from '../route-use-cases.ts';
import { ERASE_BODY_LIMIT } from '../http/body-limits.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import type { ErasureRequest } from '../identity/erase-claim.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { erasureId } from '../credentials/credential-id.ts';
import { signedErasure, signedErasureV3 } from '../identity/erase-identity.ts';
import { eitherBody, typed } from '../http/typed-app.ts';

/**
 * POST /erase (decision 022): erases an identity, proven by the person. The zero-knowledge body
 * carries the derived commitment and DID, the ID's OPRF output and both keys' signatures over a
 * one-time challenge (protocol v3's, decision 056: the DID key's signature and a depth-1 proof of
 * the secret); the raw body (`id_info`, `bio_info`) is derived and dropped, as at /register.
 * Either way the body is checked here (a malformed or badly signed one costs no guess) and
 * `eraseClaim` admits it like a verification; the reply is a verification's: 200 with Success or
 * Failure, the same for a wrong biometric, a wrong ID and an unregistered person. The body may carry a
 * sign-in proof per sector, up to 256: hence its own limit, `ERASE_BODY_LIMIT` (decision 055).
 */
export function eraseRoute(app: FastifyInstance, deps: RouteDeps) {
  const api = typed(app);
  api.get('/erase/sign-in-scopes', { schema: { 'x-guide': signInScopesGuide, response: { 200: SignInScopesReply } } }, async () => ({
    scopes: await deps.useCases.erasureScopes(),
  }));

  api.post(
    '/erase',
    {
      bodyLimit: ERASE_BODY_LIMIT,
      ...guessLimited(deps.limits),
      schema: {
        'x-guide': eraseGuide,
        // A v3 identity's body carries `idOutput` (decision 056); a v2 identity still erases with v2's.
        body: eitherBody('commitment', eitherBody('idOutput', ZkEraseV3Body, ZkEraseBody), RawEraseBody),
        response: { 200: EraseReply },
      },
    },
    async (request) => {
      const { body } = request;
      let erasure: ErasureRequest;
      if ('idOutput' in body) {
        const { ownProof, signInProofs, v2, ...fields } = body;
        erasure = { signed: signedErasureV3(fields), signInProofs, ownProof };
        // The person's v2 identity too, in the same transaction (decision 073), signed over the same challenge.
        if (v2)
          erasure.v2 = { signed: signedErasure({ ...v2, challenge: fields.challenge }, v2.signatures), signInProofs: v2.signInProofs };
      } else if ('commitment' in body) {
        const { signatures, signInProofs, ...fields } = body;
        erasure = { signed: signedErasure(fields, signatures), signInProofs };
      } else {
        erasure = { ...erasureId(normaliseField(body.id_info, 'id_info')), bioInfo: normaliseField(body.bio_info, 'bio_info') };
      }
      const erased = await deps.useCases.eraseClaim(guessAdmitter(deps.limits, guessClient(request), deps.oprfNodes), erasure);
      return { [ERASURE_RESULT]: erased ? ('Success' as const) : ('Failure' as const) };
    },
  );
}
