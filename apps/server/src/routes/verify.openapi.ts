import { SEMAPHORE_PROOF_EXAMPLE } from '../openapi/example-proofs.ts';
import { raw } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** POST /verify */
export const verifyGuide: OperationGuide = {
  tag: 'Registration and verification',
  summary: 'Verify with the biometric alone',
  description:
    'Raw: the biometric text. Zero-knowledge: a Semaphore v4 proof of membership whose message and scope are an unused challenge from `POST /challenge`. Either way the verdict is HTTP 200; with `session`, it also completes that cross-device session.',
  request: {
    raw: { summary: 'Raw: the biometric text', value: raw.verify },
    zeroKnowledge: { summary: 'Zero-knowledge: a Semaphore proof', value: { proof: SEMAPHORE_PROOF_EXAMPLE } },
  },
  replies: {
    '200': {
      success: { summary: 'Verified', value: { 'Verification Result': 'Success' } },
      failure: { summary: 'Not registered, or the proof was refused', value: { 'Verification Result': 'Failure' } },
    },
  },
};
