import type { WireCredentialSignInProof } from '@zeroid/protocol';
import type { ProofVerifier } from './verifier/proof-verifier.ts';

/**
 * The Groth16 check of a credential sign-in proof (decision 088) for a sign-in's own scope and
 * message, in the proof verifier's batches. Until the sign-in credential circuit and its key are part
 * of this build, no proof verifies: a sign-in then carries no credential claim, which is the claim
 * made only when true.
 */
export function credentialSignInVerifier(_verifier: ProofVerifier) {
  return async (_proof: WireCredentialSignInProof, _binding: { scope: string; message: string }): Promise<boolean> => false;
}
