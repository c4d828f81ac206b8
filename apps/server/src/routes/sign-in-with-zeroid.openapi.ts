import { anotherTry, siteDetails } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /signin/{uid}/details */
export const signInDetailsGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Sign-in screen: the site, scope and challenge',
  replies: { '200': { details: { summary: 'What to prove for', value: siteDetails } } },
};

/** POST /signin/{uid}/proof */
export const signInProofGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Sign-in screen: send the proof',
  description:
    'The body is a Semaphore proof for the site’s sector and this sign-in’s challenge. When the site asked for the scope `credential`, a `credentialProof` beside it tells the site which organisation vouches for the person: it must carry the same nullifier, a recent root of GET /credential-members and a trusted issuer, or the reply is 400 INVALID_CREDENTIAL_PROOF and nothing is consumed. Without it, the person signs in and the site is told nothing; sent when not asked, it is ignored.',
  replies: {
    '200': {
      back: { summary: 'Back to the site with a code', value: { redirectTo: 'http://localhost:3000/callback?code=…&state=…&iss=…' } },
      again: { summary: 'Not accepted: try again, with a fresh challenge', value: anotherTry },
    },
  },
};

/** POST /signin/{uid}/failure */
export const signInFailureGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Sign-in screen: the biometric is not registered, try again',
  description:
    'The screen found the biometric not registered before proving anything. Counted as a failed verification of the client (429 with Retry-After past the limit); the sign-in waits for another try.',
  replies: { '200': { again: { summary: 'Another try, with a fresh challenge', value: anotherTry } } },
};

/** POST /signin/{uid}/cancel */
export const signInCancelGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Sign-in screen: cancel (access_denied)',
};

/** POST /signin/{uid}/sessions */
export const signInOnPhoneGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Sign-in screen: verify on a phone instead',
};

/** POST /signin/{uid}/sessions/{id}/finish */
export const signInFinishGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Sign-in screen: finish once the phone has proved',
};
