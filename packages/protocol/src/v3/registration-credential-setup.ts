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
      sha256: 'e95fdd8d080ac43f8fe57db56da3e00145a77fc473a7a385f9dbc2efebfc1f5e',
      bytes: 5225104,
    },
    'registration-credential.wasm': {
      sha256: '931aab67af8fd5092bb9983068803d3d6a4926b494b05e555de54b594c0d09e1',
      bytes: 3728637,
    },
    'registration-credential.zkey': {
      sha256: 'c3ad247652b46931a362edf7f73873a1d54182788317d9a6eaa8e85409b43901',
      bytes: 9742985,
    },
    'registration-credential.vkey.json': {
      sha256: 'b67bcf70fb4366f77b0d62390933dc5ff73f3cdcd6fba665a251bc3e42f26955',
      bytes: 6090,
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
