import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /healthz */
export const readyGuide: OperationGuide = {
  tag: 'Operations',
  summary: 'Ready: storage and tree loaded',
  description:
    '`setup` is what the v3 registration circuit’s trusted setup is, `credentialSetup` the credential registration circuit’s, `signInCredentialSetup` the sign-in credential circuit’s: `final` only with a public phase 1, two or more phase-2 contributions and a closing beacon. None changes the status.',
  replies: {
    '200': {
      ready: {
        summary: 'Ready',
        value: {
          status: 'ready',
          members: 2,
          root: '1200320220719314186300992006211585066859',
          setup: { phase1: 'local', contributions: 2, beacon: false, final: false },
          credentialSetup: { phase1: 'local', contributions: 2, beacon: true, final: false },
          signInCredentialSetup: { phase1: 'local', contributions: 2, beacon: true, final: false },
        },
      },
    },
  },
};

/** GET /livez */
export const aliveGuide: OperationGuide = {
  tag: 'Operations',
  summary: 'Alive',
  replies: { '200': { ok: { summary: 'Alive', value: { status: 'ok' } } } },
};
