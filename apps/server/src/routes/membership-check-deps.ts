import type { AppDeps } from '../app-deps.ts';
import type { verifyMembershipProof } from '../proofs/verify-membership-proof.ts';

/** What `verifyMembershipProof` needs, from the app's dependencies: the same for every route that checks a proof. */
export function membershipCheckDeps({
  config,
  storage,
  registry,
  proofVerifier,
  metrics,
}: AppDeps): Parameters<typeof verifyMembershipProof>[0] {
  return {
    storage,
    registry,
    verifier: proofVerifier,
    rootWindowMs: config.rootWindowMs,
    observePairing: (seconds) => metrics.proofVerificationSeconds.observe(seconds),
  };
}
