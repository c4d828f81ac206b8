// Credentials an issuer signs (decisions 079, 086): the one-line format, issuing, reading, the ID tag and the leaf.
export {
  CREDENTIAL_PREFIX,
  NEVER_EXPIRES,
  CREDENTIAL_SIGNATURE_DS,
  CREDENTIAL_ID_TAG_LABEL,
  CREDENTIAL_LEAF_DS,
  dayNumber,
  dayOf,
  isExpired,
  type Credential,
} from './credential-format.ts';
export { credentialMessage } from './credential-message.ts';
export { createIssuerKey, issuerPublicKey, parseIssuerKey, ISSUER_PRIVATE_KEY_BYTES } from './issuer-key.ts';
export { issueCredential } from './issue-credential.ts';
export { readCredential, isCredentialText } from './read-credential.ts';
export { verifyCredentialSignature } from './verify-credential-signature.ts';
export { credentialVerifier } from './credential-verifier.ts';
export { credentialIdTag } from './credential-id-tag.ts';
export { credentialLeaf } from './credential-leaf.ts';
export { issuerTree, issuerLeaf, ISSUER_TREE_DEPTH, type IssuerTree, type IssuerPath } from './issuer-tree.ts';
export { credentialProofInput, credentialPublicSignals, type CredentialStatement } from './credential-proof-input.ts';
export { usableCredential } from './usable-credential.ts';
export { describeCredential } from './describe-credential.ts';
