import type { FastifyRequest } from 'fastify';
import { signInMessage, type WireSemaphoreProof } from '@zeroid/protocol';
import type { AppDeps } from '../app-deps.ts';
import { membershipCheckDeps } from './membership-check-deps.ts';
import { admitGuess, PROOF_VERIFICATION } from '../http/guess-limits.ts';
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
  request: FastifyRequest,
  deps: AppDeps,
  proof: WireSemaphoreProof,
  { scope, uid, challenge }: SignInBinding,
): Promise<ProofVerdict> {
  const { limits } = deps;
  const admission = await admitGuess(request, limits, PROOF_VERIFICATION);
  const verdict = await verifyMembershipProof(membershipCheckDeps(deps), proof, undefined, {
    scope,
    message: signInMessage(challenge, uid),
    challenge,
  }).catch(async (error: unknown) => {
    await admission.releaseVerification();
    throw error;
  });
  if (verdict !== 'Failure') await admission.releaseVerification();
  return verdict;
}
