/**
 * The trusted setup of the v3 registration circuit this build accepts (decision 072): each file's
 * SHA-256 and size, the SHA-256 of phase 1 prepared for phase 2, and what the setup is. Written by
 * `npm run ceremony` (circuits/scripts/ceremony.ts); `npm run ceremony -- verify` holds the files in
 * circuits/artifacts/ and circuits/ceremony/transcript.json to it, and the server refuses to start on
 * any other file. `state.final` is false until phase 1 is a public ceremony's, phase 2 has two or
 * more contributions and a closing beacon: the server warns at every start until then.
 */
export const REGISTRATION_V3_SETUP = {
  files: {
    'phase1.ptau': {
      sha256: '38fe348a967f2c8461f3cbff545e08cc17c8bb898b11e75ca2e90936c734f922',
      bytes: 6294796,
    },
    'registration-v3.r1cs': {
      sha256: '1103a898ace4e8854ddec83fcf99a549910dfc3c3a1aab48ed9a62d2362ee37e',
      bytes: 3082124,
    },
    'registration-v3.wasm': {
      sha256: '1081ec21f9a5985ebaf16d9e1184fc1cfa2059b5d905573289a65feb215707f5',
      bytes: 1890755,
    },
    'registration-v3.zkey': {
      sha256: 'cea47dc36766189044662cf76eaa28436a15d2eb6bd0cc4d1dc886d2a7a3561d',
      bytes: 6321400,
    },
    'registration-v3.vkey.json': {
      sha256: 'fa41feda5ae444568410d48af7d6fea02866bef55c411bc07fe9c2d73491d44b',
      bytes: 5709,
    },
  },
  preparedPhase1: '',
  state: {
    phase1: 'local',
    contributions: 2,
    beacon: false,
    final: false,
  },
} as const;

export type RegistrationSetupState = (typeof REGISTRATION_V3_SETUP)['state'];
