import type { FastifyInstance } from 'fastify';
import { ERASURE_RESULT, EraseReply, LegacyEraseBody, SignInScopesReply, ZkEraseBody, type Static } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { RAW_BODY_LIMIT } from '../http/body-limits.ts';
import { admitGuess, givingBackOnNodeFailure, guessLimited, PROOF_VERIFICATION } from '../http/guess-limits.ts';
import { normaliseField } from '../http/normalise-field.ts';
import type { GuessCost } from '../limits/attempt-limits.ts';
import { eraseIdentity, eraseSigned, signedErasure } from '../identity/erase-identity.ts';
import { provenSignInSubjects } from '../identity/erasure-sign-in-proofs.ts';
import { sectorScopes, subjectsOfSecret } from '../openid/forget-sign-ins.ts';

type Body = Static<typeof LegacyEraseBody> | Static<typeof ZkEraseBody>;

/** A raw erasure evaluates the OPRF twice (ID and biometric) and is judged like a verification. */
const RAW_ERASURE: GuessCost = { guesses: 2, verification: true };

/**
 * POST /erase (decision 022): erases an identity, proven by the person. The zero-knowledge body
 * carries the derived commitment and DID, the ID's OPRF output and both keys' signatures over a
 * one-time challenge; the raw body (`id_info`, `bio_info`) is derived here and dropped, as at
 * /register. Either way the erasure is admitted like a verification (the failure throttle and the
 * guess budget of decision 013; a Success gives its failure back), and the reply is a verification's:
 * 200 with Success or Failure, the same for a wrong biometric, a wrong ID and an unregistered person.
 */
export function eraseRoute(app: FastifyInstance, { deriver, storage, registry, limits, metrics, proofVerifier, oprfNodes }: AppDeps) {
  // What a zero-knowledge erasure proves its pseudonyms at (decision 048): public, as the sites are.
  app.get('/erase/sign-in-scopes', { schema: { response: { 200: SignInScopesReply } } }, async () => ({
    scopes: await sectorScopes(storage),
  }));

  app.post<{ Body: Body }>(
    '/erase',
    {
      bodyLimit: RAW_BODY_LIMIT,
      ...guessLimited(limits),
      schema: {
        body: { if: { type: 'object', required: ['commitment'] }, then: ZkEraseBody, else: LegacyEraseBody },
        response: { 200: EraseReply },
      },
    },
    async (request) => {
      const { body } = request;
      let erased: boolean;
      if ('commitment' in body) {
        const { signatures, signInProofs, ...fields } = body;
        const signed = signedErasure(fields, signatures);
        const admission = await admitGuess(request, limits, PROOF_VERIFICATION);
        erased = await provenSignInSubjects(storage, proofVerifier, signed, signInProofs)
          .then((signInSubjects) => eraseSigned(storage, registry, { ...signed, signInSubjects }))
          .catch(async (error: unknown) => {
            await admission.releaseVerification();
            throw error;
          });
        if (erased) await admission.releaseVerification();
      } else {
        const idInfo = normaliseField(body.id_info, 'id_info');
        const bioInfo = normaliseField(body.bio_info, 'bio_info');
        const admission = await admitGuess(request, limits, RAW_ERASURE, oprfNodes);
        const derived = await givingBackOnNodeFailure(admission, deriver.registration({ idInfo, bioInfo, withSecretScalar: true }));
        metrics.oprfEvaluations.inc({ kind: 'direct' }, 2);
        const signInSubjects = derived.secretScalar === undefined ? [] : await subjectsOfSecret(storage, BigInt(derived.secretScalar));
        erased = await eraseIdentity(storage, registry, { ...derived, signInSubjects });
        if (erased) await admission.releaseVerification();
      }
      return { [ERASURE_RESULT]: erased ? 'Success' : 'Failure' };
    },
  );
}
