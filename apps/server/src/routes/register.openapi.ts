import { ZK_REGISTER_EXAMPLE } from '../openapi/example-proofs.ts';
import { did, raw } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** POST /register */
export const registerGuide: OperationGuide = {
  tag: 'Registration and verification',
  summary: 'Register an identity',
  description:
    'Raw (the specification’s body): the server derives everything and drops the raw values. Zero-knowledge (protocol v3): the client runs one OPRF round per input (`POST /oprf` with `suite`), derives the commitment, ID tag and DID itself, and proves in zero knowledge (the `registration-v3` circuit of `GET /artifacts`) that they are the derivations of those evaluations, bound to a fresh challenge; the DID’s key signs, and nothing raw is sent. The server computes each evaluation again from the blinded points and registers each evaluation once. With `credential: {today, issuersRoot, leaf}`, the ID is a credential and the proof is of the `registration-credential` circuit: a trusted issuer (not named) signed the ID, and it has not expired on day `today`; `leaf` is the credential leaf the proof outputs (its third public signal, a decimal below the field modulus), which the server files for a sign-in that tells a site which issuer vouches for the person, and which hides that issuer and the person’s secret; the body carries neither the credential nor the ID (`ISSUER_NOT_TRUSTED` for another root, `CREDENTIAL_DAY_INVALID` for a day not the challenge’s, `INVALID_FIELD_ELEMENT` for a leaf at or above the modulus, `INVALID_PROOF` for a leaf the proof does not output). The v2 body (with `signatures`) is refused with `PROTOCOL_V2_REGISTRATION_CLOSED`. An ID or biometric already registered answers `"DID already generated": true`, never the existing identity’s data.',
  request: {
    raw: { summary: 'Raw: ID and biometric text', value: raw.register },
    zeroKnowledge: {
      summary: 'Zero-knowledge (v3): derived values, OPRF rounds, registration proof, DID signature',
      value: ZK_REGISTER_EXAMPLE,
    },
  },
  replies: {
    '200': {
      registered: { summary: 'A new identity', value: { 'DID already generated': false, DID: did } },
      already: { summary: 'Already registered', value: { 'DID already generated': true } },
    },
  },
};
