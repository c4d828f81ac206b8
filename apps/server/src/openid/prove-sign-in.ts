import { nullifierSubject, type SignInRetryReply, type WireSemaphoreProof } from '@zeroid/protocol';
import type { AdmitGuess } from '../limits/spend-guess.ts';
import { staleProof } from '../problem.ts';
import type { ChallengeServices } from '../proofs/challenges.ts';
import type { ProofCheckServices } from '../proofs/membership-check-deps.ts';
import { anotherSignInTry } from './another-sign-in-try.ts';
import { checkSignInProof, type SignInBinding } from './check-sign-in-proof.ts';

/**
 * The sign-in screen's proof (decision 023), checked by every rule of /verify with the sign-in's
 * binding (`checkSignInProof`) and counted as a verification. Success gives the pseudonym the login
 * completes with, `sub` = the proof's nullifier; a Failure gives another try with a fresh challenge
 * (decision 051); a stale proof is a 409, and the person proves again.
 */
export async function proveSignIn(
  services: ProofCheckServices & ChallengeServices,
  admit: AdmitGuess,
  proof: WireSemaphoreProof,
  binding: SignInBinding,
): Promise<{ result: 'Success'; subject: string } | SignInRetryReply> {
  const verdict = await checkSignInProof(services, admit, proof, binding);
  services.metrics.verifications.inc({ mode: 'zk', result: verdict === 'Success' ? 'Success' : 'Failure' });
  if (verdict === 'Stale') throw staleProof();
  if (verdict === 'Failure') return anotherSignInTry(services);
  return { result: 'Success', subject: nullifierSubject(proof.nullifier) };
}
