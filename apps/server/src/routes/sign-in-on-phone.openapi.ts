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
  replies: { '200': { success: { summary: 'Accepted', value: { session, result: 'Success' } } } },
};
