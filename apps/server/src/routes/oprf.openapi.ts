import { SUITE_ID } from '@zeroid/protocol/v3';
import { errorExample } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /oprf/public-key */
export const publicKeyGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'The OPRF public key',
  description: 'The client checks every evaluation’s DLEQ proof against it. In threshold mode, also the nodes and t.',
  replies: {
    '200': {
      single: { summary: 'One key', value: { suite: 'ristretto255-SHA512', publicKey: 'iLECguPc2fdLLeTOFCM4xT4iJyMjCFAgwEZVf9KBrjE' } },
    },
  },
};

/** POST /oprf */
export const evaluateGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'Evaluate one blinded element (RFC 9497)',
  description:
    'The only place a guess can be tested, so it is rate-limited per client and globally (429 with Retry-After). With `suite` (protocol v3) the element is one Baby Jubjub point B and the evaluation Z ‖ e ‖ s under the v3 key of `GET /oprf/public-key`; same guess cost.',
  request: {
    element: { summary: 'A blinded element', value: { element: 'AQAgNmD1bCHLf5yM_7D9o8ZqH6ZkW4H2Kp7bqG0r8mYkXWo' } },
    v3: { summary: 'Protocol v3: one blinded point', value: { element: 'KV-q4XboXRIcac9vOsfh9SG2SElJZL472zckV3zEAi0', suite: SUITE_ID } },
  },
  replies: { '429': errorExample('TOO_MANY_GUESSES', 'Too many guesses from your network. Please try again in 900 seconds.') },
};

/** POST /oprf/admission */
export const admissionGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'Threshold mode: admission to the OPRF nodes',
  description:
    'Counts the guess against the same limits as `POST /oprf`, then signs the blinded request: each node evaluates it only with this admission in the `zeroid-admission` header. 409 in single-key mode.',
  replies: { '429': errorExample('TOO_MANY_GUESSES', 'Too many guesses from your network. Please try again in 900 seconds.') },
};
