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
      sha256: 'fd0c7fdd5c060ddd3810ce106cb125a90ab9b7bb020109681f6e6eb030be9188',
      bytes: 6294803,
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
      sha256: '54793ae17a5965948323486ff547fe629c4044e028fa5e13de6461311a22c39e',
      bytes: 6321399,
    },
    'registration-v3.vkey.json': {
      sha256: 'c3ffafeff1123f1df7331b09bf2195672509236d226de4e9bbd1b32e287dfe6a',
      bytes: 5709,
    },
  },
  preparedPhase1: '90c4a4dfbb1f66d44fcf1c4e4656333a1776e57c7ebaf3ebb5b86599a0d8c932',
  state: {
    phase1: 'local',
    contributions: 2,
    beacon: false,
    final: false,
  },
} as const;

export type RegistrationSetupState = (typeof REGISTRATION_V3_SETUP)['state'];
