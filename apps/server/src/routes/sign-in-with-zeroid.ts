import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  signInDetailsGuide,
  signInProofGuide,
  signInFailureGuide,
  signInCancelGuide,
  signInOnPhoneGuide,
  signInFinishGuide,
} from './sign-in-with-zeroid.openapi.ts';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { Type } from '@sinclair/typebox';
import {
  CreatedSessionReply,
  ErrorReply,
  parseSemaphoreProof,
  SessionSecretHeaders,
  SignInDetailsReply,
  SignInFinishBody,
  SignInProofBody,
  SignInProofReply,
  SignInReply,
  SignInRetryReply,
  SignInSessionParams,
} from '@zeroid/protocol';
import type { RouteDeps } from '../route-use-cases.ts';
import { guessClient, guessLimited } from '../http/guess-limits.ts';
import { guessAdmitter } from '../limits/guess-admitter.ts';
import { signInNotFound } from '../problem.ts';
import { clientOf, sectorScope, siteOf } from '../openid/sign-in-request.ts';
import { asksCredential } from '../openid/credential-claim.ts';
import { perClientLimited } from '../http/per-client-limit.ts';
import { currentProvider } from '../openid/current-provider.ts';
import { asIssuer, openidProviderRoutes } from './openid-provider.ts';
import { signInOnPhoneRoutes } from './sign-in-on-phone.ts';
import { typed } from '../http/typed-app.ts';

const uidParams = Type.Object({ uid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });

/**
 * Sign in with ZeroID (decision 023): the OpenID provider (oidc-provider) at `/.well-known/openid-configuration`
 * and under `/oidc`, and the three calls of the web app's sign-in screen `/signin/:uid`:
 * - GET `/signin/:uid/details`: the site that asks, the scope of its sector and a one-time challenge;
 * - POST `/signin/:uid/proof`: a Semaphore proof for that scope and challenge, checked by every rule of
 *   /verify; on Success the login completes with `sub` = the proof's nullifier; on Failure the sign-in
 *   waits for another try, with a fresh challenge (decision 051);
 * - POST `/signin/:uid/failure`: a biometric the screen found not registered, counted as a failed
 *   verification of the client; the sign-in waits for another try, with a fresh challenge;
 * - POST `/signin/:uid/cancel`: Cancel, or the screen's tries or the client's budget spent: `error=access_denied`;
 * - POST `/signin/:uid/sessions` and `/signin/:uid/sessions/:id/finish`: the same sign-in proved on a
 *   phone through a cross-device session (decision 029; the phone's calls are in sign-in-on-phone.ts).
 * Each answers where the browser goes next. The interaction cookie (path `/signin/:uid`) ties the
 * calls to the browser that started the authorization request.
 */
export function signInWithZeroIdRoutes(app: FastifyInstance, deps: RouteDeps) {
  const api = typed(app);
  const { config, limits, openidProvider: provider, qrImages } = deps;
  const setIssuer = asIssuer(config.publicUrl);
  openidProviderRoutes(app, deps);

  /** The interaction this browser holds, checked to be the one in the URL and not yet answered. */
  async function signIn(request: FastifyRequest & { params: { uid: string } }, reply: FastifyReply) {
    const current = await currentProvider(provider, request.log);
    setIssuer(request);
    const interaction = await current.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!interaction || interaction.uid !== request.params.uid || interaction.result !== undefined) throw signInNotFound();
    const client = await clientOf(current, interaction);
    if (!client) throw signInNotFound();
    // The scope comes from the client the provider is signing in to, never from the request.
    return { provider: current, interaction, client, scope: sectorScope(client) };
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, current: Provider, result: InteractionResults) {
    return { redirectTo: await current.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false }) };
  }

  api.get(
    '/signin/:uid/details',
    {
      ...guessLimited(limits),
      schema: { 'x-guide': signInDetailsGuide, params: uidParams, response: { 200: SignInDetailsReply, 404: ErrorReply } },
    },
    async (request, reply) => {
      const { interaction, client, scope } = await signIn(request, reply);
      const { challenge, expiresAt } = await deps.useCases.issueChallenge();
      return { site: siteOf(client, interaction), scope, challenge, expiresAt, asksCredential: asksCredential(interaction.params.scope) };
    },
  );

  api.post(
    '/signin/:uid/proof',
    {
      ...guessLimited(limits),
      schema: {
        'x-guide': signInProofGuide,
        params: uidParams,
        body: SignInProofBody,
        response: { 200: SignInProofReply, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const proof = parseSemaphoreProof(request.body.proof);
      const { provider: current, interaction, scope } = await signIn(request, reply);
      // A credential proof counts only when the site asked for it (decision 088); otherwise it is ignored.
      const credentialProof = asksCredential(interaction.params.scope) ? request.body.credentialProof : undefined;
      const proved = await deps.useCases.proveSignIn(
        guessAdmitter(limits, guessClient(request)),
        proof,
        { scope, uid: request.params.uid, challenge: request.body.challenge },
        credentialProof,
      );
      if (proved.result === 'Failure') return proved;
      const login = { login: { accountId: proved.subject, remember: false } };
      return answer(request, reply, current, proved.credential ? { ...login, credential: proved.credential } : login);
    },
  );

  // The screen found the biometric not registered (not in its bucket): nothing was proven, but the
  // try was a guess, so it is a failed verification of this client as a refused proof would be
  // (the reservation is kept), under the same throttle: past it, a 429 with Retry-After.
  api.post(
    '/signin/:uid/failure',
    {
      ...guessLimited(limits),
      schema: { 'x-guide': signInFailureGuide, params: uidParams, response: { 200: SignInRetryReply, 404: ErrorReply, 429: ErrorReply } },
    },
    async (request, reply) => {
      await signIn(request, reply);
      return deps.useCases.anotherSignInTry(guessAdmitter(limits, guessClient(request)));
    },
  );

  api.post(
    '/signin/:uid/cancel',
    {
      ...perClientLimited(limits),
      schema: { 'x-guide': signInCancelGuide, params: uidParams, response: { 200: SignInReply, 404: ErrorReply } },
    },
    async (request, reply) => {
      const { provider: current } = await signIn(request, reply);
      return answer(request, reply, current, { error: 'access_denied', error_description: 'The person did not sign in.' });
    },
  );

  // On a phone (decision 029). The screen opens a cross-device session tied to this authorization
  // request and shows its QR code; the phone proves for this site's sector (sign-in-on-phone.ts).
  api.post(
    '/signin/:uid/sessions',
    {
      ...guessLimited(limits),
      schema: { 'x-guide': signInOnPhoneGuide, params: uidParams, response: { 200: CreatedSessionReply, 404: ErrorReply } },
    },
    async (request, reply) => {
      await signIn(request, reply);
      const created = await deps.useCases.createSession(request.params.uid);
      return { ...created, link: qrImages.link(created.session) };
    },
  );

  // When the session has completed, the screen that holds its secret (and this request's cookie)
  // finishes the login: with the pseudonym the phone proved once this screen's person has typed the
  // code the phone shows (decision 035), or with access_denied.
  api.post(
    '/signin/:uid/sessions/:id/finish',
    {
      ...perClientLimited(limits),
      schema: {
        'x-guide': signInFinishGuide,
        params: SignInSessionParams,
        headers: SessionSecretHeaders,
        body: SignInFinishBody,
        response: { 200: SignInReply, 400: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request, reply) => {
      const { provider: current } = await signIn(request, reply);
      const { id } = request.params;
      const result = await deps.useCases.finishSignInOnPhone(request.params.uid, id, request.headers['session-secret'], request.body?.code);
      return answer(request, reply, current, result);
    },
  );

  signInOnPhoneRoutes(app, deps);
}
