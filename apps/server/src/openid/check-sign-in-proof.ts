import { signInMessage, type WireSemaphoreProof } from '@zeroid/protocol';
import { PROOF_VERIFICATION } from '../limits/guess-costs.ts';
import { spendGuess, type AdmitGuess } from '../limits/spend-guess.ts';
import { membershipCheckDeps, type ProofCheckServices } from '../proofs/membership-check-deps.ts';
import { verifyMembershipProof, type ProofVerdict } from '../proofs/verify-membership-proof.ts';

/** Where a sign-in proof must point: the scope of the site's sector and the authorization request's uid. */
export interface SignInBinding {
  scope: string;
  uid: string;
  challenge: string;
}

/**
 * A sign-in's proof, on the screen (decision 023) or on a phone (decision 029), checked by every rule
 * of `verifyMembershipProof` with the sign-in's binding: the sector's scope and the message
 * `signInMessage(challenge, uid)`, both from the server's records, never from the client. The check
 * holds a guess of the client's budget: a Failure keeps it spent (a wrong biometric); Success and
 * Stale (nothing was learnt) give it back, as does an error.
 */
export async function checkSignInProof(
  services: ProofCheckServices,
  admit: AdmitGuess,
  proof: WireSemaphoreProof,
  { scope, uid, challenge }: SignInBinding,
): Promise<ProofVerdict> {
  return spendGuess(
    admit,
    PROOF_VERIFICATION,
    () =>
      verifyMembershipProof(membershipCheckDeps(services), proof, undefined, { scope, message: signInMessage(challenge, uid), challenge }),
    (verdict) => verdict === 'Failure',
  );
}
