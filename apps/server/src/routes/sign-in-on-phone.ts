import type { FastifyInstance } from 'fastify';
import { phoneSignInDetailsGuide, phoneSignInProofGuide } from './sign-in-on-phone.openapi.ts';
import {
  ErrorReply,
  parseSemaphoreProof,
  PhoneSignInDetailsReply,
  PhoneSignInReply,
  SessionParams,
  SignInProofBody,
} from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { typed } from '../http/typed-app.ts';

/**
 * Sign in with ZeroID on a phone (decision 029): the phone's side of a cross-device session that the
 * sign-in screen `/signin/:uid` opened for its authorization request. The phone holds only the QR
 * link (the session id), never the screen's cookie or the session's secret:
 * - GET `/sessions/:id/sign-in`: the site that asks (the phone names it), the scope of its sector, a
 *   one-time challenge and the interaction id the proof's message binds it to;
 * - POST `/sessions/:id/sign-in`: the proof, checked by every rule of the on-screen sign-in; an
 *   accepted one completes the session with its pseudonym, once. The screen, which follows the
 *   session, then finishes the login itself.
 * A cancel or an unregistered biometric is `POST /sessions/:id/failure`, as for any session.
 */
export function signInOnPhoneRoutes(app: FastifyInstance, deps: RouteDeps) {
  const api = typed(app);
  const { limits } = deps;

  api.get(
    '/sessions/:id/sign-in',
    {
      ...guessLimited(limits),
      schema: { 'x-guide': phoneSignInDetailsGuide, params: SessionParams, response: { 200: PhoneSignInDetailsReply, 404: ErrorReply } },
    },
    async (request) => deps.useCases.phoneSignInDetails(request.params.id, request.log),
  );

  api.post(
    '/sessions/:id/sign-in',
    {
      ...guessLimited(limits),
      schema: {
        'x-guide': phoneSignInProofGuide,
        params: SessionParams,
        body: SignInProofBody,
        response: { 200: PhoneSignInReply, 400: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request) => {
      const proof = parseSemaphoreProof(request.body.proof);
      const admit = guessAdmitter(limits, guessClient(request));
      // The phone shows the code; the screen finishes only once its person has typed it (decision 035).
      return deps.useCases.proveSignInOnPhone(
        admit,
        request.params.id,
        proof,
        request.body.challenge,
        request.log,
        request.body.credentialProof,
      );
    },
  );
}
