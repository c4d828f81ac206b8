import { registrationClaim } from '../proofs/verifier/registration-claim.ts';
import type { ProofVerifier } from '../proofs/verifier/proof-verifier.ts';
import type { RegisterOutcome, Storage } from '../storage/types.ts';
import { badRequest, challengeUnusable } from '../problem.ts';
import type { CheckedRegistrationV3 } from './check-registration-v3.ts';

/**
 * A protocol v3 registration (decision 056), step two, once admitted: the challenge is consumed
 * first (a captured body cannot be replayed, and a dead challenge costs no pairing), then the
 * Groth16 proof is verified against the statement the server built, then, in one transaction, both
 * blinded points are recorded (one evaluation, one registration) and the identity inserted (a taken
 * commitment, ID tag or DID answers "already registered").
 * @throws Problem 400: `CHALLENGE_UNUSABLE`, `INVALID_PROOF`, or `EVALUATION_REUSED` when a blinded
 *   point was registered before.
 */
export async function registerProven(
  storage: Storage,
  verifier: ProofVerifier,
  registration: CheckedRegistrationV3,
): Promise<RegisterOutcome> {
  if (!(await storage.challenges.consume(registration.challenge))) throw challengeUnusable();
  if (!(await verifier.verifyClaim(registrationClaim(registration.proof, registration.publicSignals)))) {
    throw badRequest('INVALID_PROOF', 'The registration proof does not hold for these values and OPRF evaluations.');
  }
  const { commitment, idTag, did, queries } = registration;
  const outcome = await storage.identities.register({ commitment, idTag, did, queries });
  if (!outcome.inserted && outcome.reusedQuery) {
    throw badRequest('EVALUATION_REUSED', 'An OPRF evaluation of this registration was used by another one. Please start again.');
  }
  return outcome;
}
