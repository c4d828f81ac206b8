import type { Metrics } from '../metrics.ts';
import type { Registry } from '../member-tree/member-tree.ts';
import type { Storage } from '../storage/types.ts';
import type { ProofVerifier } from './verifier/proof-verifier.ts';
import type { verifyMembershipProof } from './verify-membership-proof.ts';

/** The services a use case that checks a proof is handed (the app's dependencies have these names). */
export interface ProofCheckServices {
  config: { rootWindowMs: number };
  storage: Storage;
  registry: Registry;
  proofVerifier: ProofVerifier;
  metrics: Metrics;
}

/** What `verifyMembershipProof` needs, from the services: the same for every use case that checks a proof. */
export function membershipCheckDeps({
  config,
  storage,
  registry,
  proofVerifier,
  metrics,
}: ProofCheckServices): Parameters<typeof verifyMembershipProof>[0] {
  return {
    storage,
    registry,
    verifier: proofVerifier,
    rootWindowMs: config.rootWindowMs,
    observePairing: (seconds) => metrics.proofVerificationSeconds.observe(seconds),
  };
}
