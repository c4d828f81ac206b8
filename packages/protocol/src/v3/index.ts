// Protocol v3 (decision 040): the 2HashDH OPRF on Baby Jubjub and the registration proof's inputs.
// Imported as `@zeroid/protocol/v3` until phase B wires it into the apps.
export {
  SUITE_ID,
  QUERY_DST,
  QUERY_TAG,
  FINALIZE_DS,
  SEMAPHORE_LABEL,
  ID_TAG_LABEL,
  DID_KEY_LABEL,
  SECRET_BITS,
  asciiField,
} from './oprf-suite.ts';
export {
  Point,
  Fn,
  G,
  encodePoint,
  decodePoint,
  pointFromAffine,
  decodeScalar,
  randomScalar,
  type AffinePoint,
} from './baby-jubjub-group.ts';
export { hashText } from './hash-text.ts';
export { oprfQuery } from './oprf-query.ts';
export { queryPoint } from './query-point.ts';
export { blindQuery, type BlindedQuery } from './blind-query.ts';
export { evaluateBlinded } from './evaluate-blinded.ts';
export { proveDleq, verifyDleq, type DleqProof } from './dleq-proof.ts';
export { combineEvaluations, type NodeAnswer } from './combine-evaluations.ts';
export { lagrangeCoefficients, splitKey, recoverKey, publicShare, type KeyShare } from './threshold-key.ts';
export { unblindEvaluation } from './unblind-evaluation.ts';
export { finalizeOutput, finalizeOutputOfY } from './finalize-output.ts';
export { evaluateOutput } from './evaluate-output.ts';
export { jsV3Arithmetic, type V3Arithmetic } from './arithmetic.ts';
export { deriveRegistration, provingIdentityV3, idTagV3, type RegistrationV3 } from './derive-registration.ts';
export {
  didHash,
  registrationProofInput,
  registrationPublicSignals,
  registrationStatement,
  type RegistrationStatement,
} from './registration-proof-input.ts';
export { encodeEvaluation, decodeEvaluation, EVALUATION_BYTES } from './evaluation-codec.ts';
export { checkPublicShares } from './check-public-shares.ts';
export { babyJubjubSuite } from './baby-jubjub-suite.ts';
export { proveDleqBatch, verifyDleqBatch } from './dleq-batch-proof.ts';
export { V3Point, V3Evaluation, V3SuiteField, OprfV3KeyInfo, OprfNodeV3KeyInfo } from './key-info.ts';
export { CredentialClaim } from './credential-claim.ts';
export { V3Round, Groth16Points, V2Holding, ZkRegisterV3Body, ZkEraseV3Body, v3RegistrationMessage, v3ErasureMessage } from './wire.ts';
export { v3KeyFromV2 } from './key-from-v2.ts';
export { signWithDid } from './did-signature.ts';
export { REGISTRATION_V3_SETUP, type RegistrationSetupState } from './registration-setup.ts';
export { REGISTRATION_CREDENTIAL_SETUP } from './registration-credential-setup.ts';
export { SIGN_IN_CREDENTIAL_SETUP } from './sign-in-credential-setup.ts';
