import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ErrorReply,
  nullifierSubject,
  parseSemaphoreProof,
  PhoneSignInDetailsReply,
  PhoneSignInReply,
  SessionParams,
  SignInProofBody,
} from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { guessAdmitter, guessLimited } from '../http/guess-limits.ts';
import { Problem } from '../problem.ts';
import { issueChallenge } from '../proofs/challenges.ts';
import { findSignInRequest } from '../openid/sign-in-request.ts';
import { settleSession } from '../sessions/settle-session.ts';
import { checkSignInProof } from '../openid/check-sign-in-proof.ts';
import { currentProvider } from '../openid/current-provider.ts';
import { typed } from '../http/typed-app.ts';

const notOpen = () =>
  new Problem(404, 'SESSION_NOT_FOUND', 'This sign-in link has expired or was already used. Ask the other screen for a new QR code.');

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
export function signInOnPhoneRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = typed(app);
  const { config, storage, limits, metrics, openidProvider } = deps;

  /** The pending session's authorization request, still waiting for its proof. */
  async function openSignIn(request: FastifyRequest, id: string) {
    const session = await storage.sessions.find(id);
    if (session?.status !== 'pending' || session.signIn === undefined) throw notOpen();
    const signIn = await findSignInRequest(await currentProvider(openidProvider, request.log), session.signIn);
    if (!signIn) throw notOpen();
    return signIn;
  }

  api.get(
    '/sessions/:id/sign-in',
    { ...guessLimited(limits), schema: { params: SessionParams, response: { 200: PhoneSignInDetailsReply, 404: ErrorReply } } },
    async (request) => {
      const { uid, site, scope } = await openSignIn(request, request.params.id);
      const { challenge, expiresAt } = await issueChallenge(storage.challenges, config.challengeTtlMs);
      return { site, scope, challenge, expiresAt, uid };
    },
  );

  api.post(
    '/sessions/:id/sign-in',
    {
      ...guessLimited(limits),
      schema: { params: SessionParams, body: SignInProofBody, response: { 200: PhoneSignInReply, 404: ErrorReply, 409: ErrorReply } },
    },
    async (request) => {
      const proof = parseSemaphoreProof(request.body.proof);
      const { uid, scope } = await openSignIn(request, request.params.id);
      // The same binding as on the screen: the scope of the site's sector, the challenge bound to
      // this authorization request, both from the server's records, never from the phone.
      const verdict = await checkSignInProof(deps, guessAdmitter(request, limits), proof, {
        scope,
        uid,
        challenge: request.body.challenge,
      });
      if (verdict === 'Stale') {
        metrics.verifications.inc({ mode: 'zk', result: 'Failure' });
        throw new Problem(409, 'STALE_PROOF', 'The group changed while this proof was made. Please verify again.');
      }
      const { verdict: result, confirmationCode } = await settleSession(
        storage,
        request.params.id,
        verdict,
        nullifierSubject(proof.nullifier),
      );
      metrics.verifications.inc({ mode: 'zk', result });
      // The phone shows the code; the screen finishes only once its person has typed it (decision 035).
      return { session: request.params.id, result, ...(confirmationCode === undefined ? {} : { confirmationCode }) };
    },
  );
}
