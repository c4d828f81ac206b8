import type { WireCredentialSignInProof } from '@zeroid/protocol';
import type { ProofVerifier } from './verifier/proof-verifier.ts';
import { signInCredentialClaim } from './verifier/sign-in-credential-claim.ts';

/**
 * The Groth16 check of a credential sign-in proof (decisions 087, 088) for a sign-in's own scope and
 * message, in the proof verifier's batches with every other proof (which also refuses B outside G2).
 * A malformed proof is refused before any curve arithmetic; a throw is a refusal, never a 500.
 */
export function credentialSignInVerifier(verifier: ProofVerifier) {
  return async (proof: WireCredentialSignInProof, binding: { scope: string; message: string }): Promise<boolean> => {
    const claim = signInCredentialClaim(proof, binding);
    if (!claim) return false;
    return verifier.verifyClaim(claim).catch(() => false);
  };
}
