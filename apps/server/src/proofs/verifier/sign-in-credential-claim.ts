import { signInCredentialPublicSignals, type SignInBinding } from '@zeroid/protocol';
import type { Groth16Claim } from './batch-verify.ts';
import { registrationClaim } from './registration-claim.ts';
import { SIGN_IN_CREDENTIAL_KEY } from './verification-keys.ts';

/**
 * The Groth16 claim of a credential sign-in proof (decision 087) under `sign-in-credential.vkey.json`,
 * for the batched verifier (`proofVerifier.verifyClaim`, which also refuses B outside G2): the public
 * signals are built from the proof's root, nullifier and issuer and the sign-in's own scope and message
 * (`signInCredentialPublicSignals`), never taken from the client. Undefined for a malformed proof,
 * which is then refused without any curve arithmetic. The caller still holds the root to the credential
 * tree's window, the issuer to TRUSTED_ISSUERS and the nullifier to the sign-in proof's.
 */
export function signInCredentialClaim(proof: unknown, binding: SignInBinding): Groth16Claim | undefined {
  const publicSignals = signInCredentialPublicSignals(proof, binding);
  if (!publicSignals) return undefined;
  return registrationClaim((proof as { points: string[] }).points, publicSignals, SIGN_IN_CREDENTIAL_KEY);
}
