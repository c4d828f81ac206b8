/**
 * The trusted setup of the registration circuit of an ID that is a credential this build accepts (decisions 072, 085): each file's
 * SHA-256 and size, the SHA-256 of phase 1 prepared for phase 2, and what the setup is. Written by
 * `npm run ceremony` (circuits/scripts/ceremony.ts); `npm run ceremony -- verify` holds the files in
 * circuits/artifacts/ and its transcript in circuits/ceremony/ to it, and the server refuses to start on
 * any other file. `state.final` is false until phase 1 is a public ceremony's, phase 2 has two or
 * more contributions and a closing beacon: the server warns at every start until then.
 */
export const REGISTRATION_CREDENTIAL_SETUP = {
  files: {
    'phase1.ptau': {
      sha256: 'fd0c7fdd5c060ddd3810ce106cb125a90ab9b7bb020109681f6e6eb030be9188',
      bytes: 6294803,
    },
    'registration-credential.r1cs': {
      sha256: 'ca869ec1827f3d1d6b4ff175c7b86e04e262f07eaa01b5eb1a50e90a11b21204',
      bytes: 5538172,
    },
    'registration-credential.wasm': {
      sha256: '832046ebedae0e89a1283d2912d8459db65314b04a445297be6a02338e9021b8',
      bytes: 3731272,
    },
    'registration-credential.zkey': {
      sha256: '256c34dc28aff655fcc4c63da9f51e36b4f1a7c6843adc38686051f60fca80f1',
      bytes: 10149025,
    },
    'registration-credential.vkey.json': {
      sha256: '464012f2722df5343938f79cfe8a0d35c8cfbcc086833f9ceec7100404b07e1a',
      bytes: 6286,
    },
  },
  preparedPhase1: '90c4a4dfbb1f66d44fcf1c4e4656333a1776e57c7ebaf3ebb5b86599a0d8c932',
  state: {
    phase1: 'local',
    contributions: 2,
    beacon: true,
    final: false,
  },
} as const;
