import { raw } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** POST /erase */
export const eraseGuide: OperationGuide = {
  tag: 'Registration and verification',
  summary: 'Delete an identity',
  description:
    'Proven with the ID and the biometric: the leaf becomes 0, the DID resolves as deactivated, and the person may register again.',
  request: { raw: { summary: 'Raw: ID and biometric text', value: raw.register } },
  replies: {
    '200': {
      erased: { summary: 'Erased', value: { 'Erasure Result': 'Success' } },
      notErased: { summary: 'Nothing matched both', value: { 'Erasure Result': 'Failure' } },
    },
  },
};

/** GET /erase/sign-in-scopes */
export const signInScopesGuide: OperationGuide = {
  tag: 'Registration and verification',
  summary: 'The sectors a zero-knowledge erasure proves its pseudonyms at',
  description:
    'One scope per registered Sign in with ZeroID sector. A zero-knowledge erasure sends one Semaphore proof per scope, in the group of its own commitment alone and bound to its challenge, so that its sign-in records and tokens go too, without its secret ever leaving the device.',
  replies: { '200': { scopes: { summary: 'Two sectors', value: { scopes: ['1234', '5678'] } } } },
};
