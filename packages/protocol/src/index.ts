export {
  MESSAGES,
  DID_ALREADY_GENERATED,
  REPLACED_DID,
  VERIFICATION_RESULT,
  ERASURE_RESULT,
  CONFIRMATION_CODE,
  ERASE_MESSAGES,
} from './messages.ts';
export {
  ProtocolInputError,
  OprfProofError,
  ThresholdKeyMismatchError,
  ThresholdUnavailableError,
  type ProtocolInputErrorCode,
} from './errors.ts';
export { normaliseInput, MAX_INPUT_BYTES, NORMALISATION_VERSION } from './normalise-input.ts';
export { OPRF_SUITE, oprfInput, generateOprfKeyPair, oprfPublicKey, type OprfDomain } from './oprf-suite.ts';
export { assertBlindedRequest, OprfEvaluator } from './oprf-evaluator.ts';
export { blindOprfInput } from './blind-oprf-input.ts';
export { deriveCommitment, deriveIdentity, deriveProvingIdentity, Identity } from './derive-identity.ts';
export { deriveIdTag } from './derive-id-tag.ts';
export { deriveAll, type DerivedRegistration } from './derive-all.ts';
export {
  deriveDidKey,
  didKeyFromPublicKey,
  didKeyPublicKey,
  verifyDidSignature,
  didDocument,
  isDidKey,
  DID_KEY_PATTERN,
  type Ed25519PublicKeyOf,
} from './did-key.ts';
export { voprfEvaluate, type RistrettoMultiply } from './voprf-evaluate.ts';
export { SNARK_SCALAR_FIELD, BN254_BASE_FIELD, isFieldElement, isCanonicalBelow } from './field.ts';
export { signPossession, verifyPossession, type RegistrationSignatures } from './registration-signatures.ts';
export { signErasure, verifyErasure, erasureIdTag, type ZkEraseFields } from './erasure-signatures.ts';
export { isSemaphorePublicKey, isDegenerateCommitment, SMALL_ORDER_POINTS } from './semaphore-public-key.ts';
export { semaphoreHash } from './semaphore-hash.ts';
export { isZeroSecretProof, ZERO_SECRET_COMMITMENT } from './zero-secret-proof.ts';
export { parseSemaphoreProof, MIN_DEPTH, MAX_DEPTH, type WireSemaphoreProof, type PackedPoints } from './parse-semaphore-proof.ts';
export { memberBucket } from './member-bucket.ts';
export { sessionMessage } from './session-message.ts';
export { signInScope, signInSectorUriScope, signInMessage, nullifierSubject } from './sign-in-scope.ts';
export { signInSubject } from './sign-in-subject.ts';
export { commitmentOfSecretScalar, isSecretOfCommitment } from './baby-jubjub-commitment.ts';
export { precomputeFixedBases } from './fixed-base-tables.ts';
export {
  SignInDetailsReply,
  SignInProofBody,
  SignInReply,
  SignInRetryReply,
  SignInProofReply,
  PhoneSignInDetailsReply,
  PhoneSignInReply,
  SignInSessionParams,
  SignInFinishBody,
} from './sign-in-schemas.ts';
export { CredentialMemberWithProof, CredentialMembersReply } from './credential-members-schemas.ts';
export * from './schemas.ts';
export { ArtifactEntry, ArtifactManifestReply } from './artifact-schemas.ts';
export { IssuersReply } from './issuer-schemas.ts';
export {
  RESERVATION_HEADER,
  ReservationRequest,
  ReservationReply,
  ReservationRelease,
  ReservationReleaseReply,
} from './reservation-schemas.ts';
export {
  splitOprfKey,
  recoverOprfKey,
  refreshOprfShares,
  oprfPublicShare,
  checkPublicShares,
  partitionPublicShares,
  MAX_OPRF_SHARES,
  type OprfKeyShare,
  type OprfPublicShare,
} from './threshold-oprf.ts';
export { blindThresholdOprfInput, type ThresholdBlinding, type ThresholdKeys } from './blind-threshold-oprf-input.ts';
export { chooseCombinableAnswers, chooseFittingSubset } from './combinable-shares.ts';
export {
  OPRF_ADMISSION_HEADER,
  OPRF_BATCH_MAX,
  OprfAdmissionReply,
  OprfAdmissionRequest,
  OprfBatchRequest,
  OprfNodeKeyReply,
} from './oprf-node-schemas.ts';
export { type OprfSuite } from './oprf-group-suite.ts';
export { ristretto255Suite } from './ristretto255-suite.ts';
export {
  signInCredentialInput,
  SIGN_IN_CREDENTIAL_MAX_DEPTH,
  type SignInCredentialWitness,
  type SignInCredentialInput,
} from './sign-in-credential/sign-in-credential-input.ts';
export { proveSignInCredential, type SignInCredentialArtifacts } from './sign-in-credential/prove-sign-in-credential.ts';
export { verifySignInCredentialProof } from './sign-in-credential/verify-sign-in-credential-proof.ts';
export { signInCredentialPublicSignals, type SignInBinding } from './sign-in-credential/sign-in-credential-signals.ts';
export { WireCredentialSignInProof } from './sign-in-credential/sign-in-credential-schemas.ts';
export { credentialLeaf } from './credential/credential-leaf.ts';
