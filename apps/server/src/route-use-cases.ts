import type { AppDeps } from './app-deps.ts';
import { confirmOnScreen } from './sessions/confirm-on-screen.ts';
import { createSession } from './sessions/create-session.ts';
import { failOnPhone } from './sessions/fail-on-phone.ts';
import { ownedSession } from './sessions/owned-session.ts';
import { pendingSessionQr } from './sessions/pending-session-qr.ts';
import { anotherSignInTry } from './openid/another-sign-in-try.ts';
import { credentialBucket } from './openid/credential-bucket.ts';
import { finishSignInOnPhone } from './openid/finish-sign-in-on-phone.ts';
import { openSessionOnPhone } from './openid/open-session-on-phone.ts';
import { phoneSignInDetails } from './openid/phone-sign-in-details.ts';
import { proveSignIn } from './openid/prove-sign-in.ts';
import { proveSignInOnPhone } from './openid/prove-sign-in-on-phone.ts';
import { eraseClaim } from './identity/erase-claim.ts';
import { erasureScopes } from './identity/erasure-scopes.ts';
import { readiness } from './identity/readiness.ts';
import { registerClaim } from './identity/register-claim.ts';
import { resolveDid } from './identity/resolve-did.ts';
import { verifyClaim } from './identity/verify-claim.ts';
import { issueChallenge } from './proofs/challenges.ts';

/**
 * The use cases that read or write storage, each bound here to the process's dependencies: a route
 * calls `deps.useCases.createSession(...)` and never holds storage itself, so the compiler (not only
 * lint) keeps storage out of the routes (`RouteDeps`).
 */
export function routeUseCases(deps: AppDeps) {
  const bound =
    <A extends unknown[], R>(useCase: (deps: AppDeps, ...args: A) => R) =>
    (...args: A) =>
      useCase(deps, ...args);
  return {
    anotherSignInTry: bound(anotherSignInTry),
    confirmOnScreen: bound(confirmOnScreen),
    createSession: bound(createSession),
    credentialBucket: bound(credentialBucket),
    eraseClaim: bound(eraseClaim),
    erasureScopes: bound(erasureScopes),
    failOnPhone: bound(failOnPhone),
    finishSignInOnPhone: bound(finishSignInOnPhone),
    issueChallenge: bound(issueChallenge),
    openSessionOnPhone: bound(openSessionOnPhone),
    ownedSession: bound(ownedSession),
    pendingSessionQr: bound(pendingSessionQr),
    phoneSignInDetails: bound(phoneSignInDetails),
    proveSignIn: bound(proveSignIn),
    proveSignInOnPhone: bound(proveSignInOnPhone),
    readiness: bound(readiness),
    registerClaim: bound(registerClaim),
    resolveDid: bound(resolveDid),
    verifyClaim: bound(verifyClaim),
  };
}

/** What a route is given: every dependency but storage, and the use cases bound to it. */
export type RouteDeps = Omit<AppDeps, 'storage'> & { useCases: ReturnType<typeof routeUseCases> };

/** The routes' dependencies: storage stays with the bound use cases. */
export function routeDeps(deps: AppDeps): RouteDeps {
  const rest: Partial<AppDeps> = { ...deps };
  delete rest.storage;
  return { ...(rest as Omit<AppDeps, 'storage'>), useCases: routeUseCases(deps) };
}
