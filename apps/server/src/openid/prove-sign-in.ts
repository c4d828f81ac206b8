import { nullifierSubject, type SignInRetryReply, type WireCredentialSignInProof, type WireSemaphoreProof } from '@zeroid/protocol';
import type { AdmitGuess } from '../limits/spend-guess.ts';
import { staleProof } from '../problem.ts';
import type { ChallengeServices } from '../proofs/challenges.ts';
import type { ProofCheckServices } from '../proofs/membership-check-deps.ts';
import { anotherSignInTry } from './another-sign-in-try.ts';
import { checkSignInProof, type SignInBinding } from './check-sign-in-proof.ts';
import { checkCredentialSignInProof, type CredentialProofServices } from './check-credential-sign-in-proof.ts';
import type { CredentialClaim } from './credential-claim.ts';

/**
 * The sign-in screen's proof (decision 023), checked by every rule of /verify with the sign-in's
 * binding (`checkSignInProof`) and counted as a verification. Success gives the pseudonym the login
 * completes with, `sub` = the proof's nullifier; a Failure gives another try with a fresh challenge
 * (decision 051); a stale proof is a 409, and the person proves again.
 *
 * `credentialProof` is given only when the site asked for `credential` (decision 088): it is checked
 * first (`checkCredentialSignInProof`, a 400 that spends neither the challenge nor a guess), and a
 * Success then carries the claim the site is told.
 */
export async function proveSignIn(
  services: ProofCheckServices & ChallengeServices & CredentialProofServices,
  admit: AdmitGuess,
  proof: WireSemaphoreProof,
  binding: SignInBinding,
  credentialProof?: WireCredentialSignInProof,
): Promise<{ result: 'Success'; subject: string; credential?: CredentialClaim } | SignInRetryReply> {
  const credential = credentialProof && (await checkCredentialSignInProof(services, credentialProof, proof.nullifier, binding));
  const verdict = await checkSignInProof(services, admit, proof, binding);
  services.metrics.verifications.inc({ mode: 'zk', result: verdict === 'Success' ? 'Success' : 'Failure' });
  if (verdict === 'Stale') throw staleProof();
  if (verdict === 'Failure') return anotherSignInTry(services);
  const subject = nullifierSubject(proof.nullifier);
  return credential ? { result: 'Success', subject, credential } : { result: 'Success', subject };
}
