/**
 * The trusted setup of the sign-in circuit that shows a credential’s issuer this build accepts (decisions 072, 085): each file's
 * SHA-256 and size, the SHA-256 of phase 1 prepared for phase 2, and what the setup is. Written by
 * `npm run ceremony` (circuits/scripts/ceremony.ts); `npm run ceremony -- verify` holds the files in
 * circuits/artifacts/ and its transcript in circuits/ceremony/ to it, and the server refuses to start on
 * any other file. `state.final` is false until phase 1 is a public ceremony's, phase 2 has two or
 * more contributions and a closing beacon: the server warns at every start until then.
 */
export const SIGN_IN_CREDENTIAL_SETUP = {
  files: {
    'phase1.ptau': {
      sha256: 'fd0c7fdd5c060ddd3810ce106cb125a90ab9b7bb020109681f6e6eb030be9188',
      bytes: 6294803,
    },
    'sign-in-credential.r1cs': {
      sha256: '7527db20cbe585c9dc46b3454d135cf78ce23da39b9b58357965ad96e0e2bdf2',
      bytes: 3264064,
    },
    'sign-in-credential.wasm': {
      sha256: '63e2378fe7ce30b2779c6c295cad3640429e4e2d130da6c1e4fb6908e4ffa858',
      bytes: 2398722,
    },
    'sign-in-credential.zkey': {
      sha256: '202f855a88fc807077515f609f521147da6b6b4de2c0d49f78289ff844ec1b08',
      bytes: 4245788,
    },
    'sign-in-credential.vkey.json': {
      sha256: '984239b7c654e4dc693cad6a5d77c3eb8f867700eebf2d14594db4ea72cea4e3',
      bytes: 4134,
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
