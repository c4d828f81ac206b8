import { challenge, expiresAt } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** POST /challenge */
export const challengeGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'A one-time challenge',
  replies: { '200': { challenge: { summary: 'A field element, valid for a few minutes', value: { challenge, expiresAt } } } },
};
