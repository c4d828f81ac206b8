import { session, siteDetails } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /sessions/{id}/sign-in */
export const phoneSignInDetailsGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Phone: what a sign-in session asks to prove',
  replies: {
    '200': { details: { summary: 'The site, named before anything is proved', value: { ...siteDetails, uid: 'fV3mQz6y0cJk2hLrT8wq' } } },
  },
};

/** POST /sessions/{id}/sign-in */
export const phoneSignInProofGuide: OperationGuide = {
  tag: 'Sign in with ZeroID (OpenID Connect)',
  summary: 'Phone: send the sign-in proof',
  description:
    'The body is a Semaphore proof for the site’s sector and this sign-in’s challenge. When the site asked for the scope `credential`, a `credentialProof` beside it tells the site which organisation vouches for the person: it must carry the same nullifier, a recent root of GET /credential-members and a trusted issuer, or the reply is 400 INVALID_CREDENTIAL_PROOF and nothing is consumed. Without it, the person signs in and the site is told nothing; sent when not asked, it is ignored.',
  replies: { '200': { success: { summary: 'Accepted', value: { session, result: 'Success' } } } },
};
