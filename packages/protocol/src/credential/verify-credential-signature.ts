import { verifySignature } from '@zk-kit/eddsa-poseidon';
import type { Credential } from './credential-format.ts';
import { credentialMessage } from './credential-message.ts';

/**
 * Whether the credential's issuer signed its ID and expiry (EdDSA-Poseidon on Baby Jubjub, as
 * circomlib's EdDSAPoseidonVerifier checks it). A changed ID, expiry or issuer key fails here: each
 * is in the message or in the signature's hash. It says nothing about whether the issuer is trusted
 * or the credential still valid.
 */
export function verifyCredentialSignature(credential: Credential): boolean {
  const { issuer, id, expiryDay, signature } = credential;
  return verifySignature(credentialMessage(id, expiryDay), signature, [issuer.x, issuer.y]);
}
