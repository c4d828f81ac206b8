import { registrationClaim } from '../proofs/verifier/registration-claim.ts';
import type { ProofVerifier } from '../proofs/verifier/proof-verifier.ts';
import type { NewIdentity, Storage } from '../storage/types.ts';
import { badRequest, challengeUnusable } from '../problem.ts';
import type { CheckedRegistrationV3 } from './check-registration-v3.ts';
import { challengeDayProblem } from './check-credential-registration.ts';

/**
 * A protocol v3 registration (decision 056), step two, once admitted: the challenge is consumed
 * first (a captured body cannot be replayed, and a dead challenge costs no pairing), then the
 * Groth16 proof is verified against the statement the server built, then, in one transaction, both
 * blinded points are recorded (one evaluation, one registration) and the identity inserted (a taken
 * commitment, ID tag or DID answers "already registered").
 *
 * With `moveFromV2` (its signatures checked by the route), the same transaction replaces that v2
 * identity instead (decision 073). The server cannot tell whether the v3 values come from the same
 * texts as the v2 ones, so a move that would evict anyone else's registration is refused: the
 * person moves on the raw path, where the server derives both from the same texts.
 * @throws Problem 400: `CHALLENGE_UNUSABLE`, `CREDENTIAL_DAY_INVALID` for a credential proven on a day
 *   not its challenge's (decision 085), `INVALID_PROOF`, `EVALUATION_REUSED` when a blinded
 *   point was registered before; for a move, `MOVE_WOULD_EVICT` and `V2_IDENTITY_NOT_FOUND`.
 */
export async function registerProven(
  storage: Storage,
  verifier: ProofVerifier,
  registration: CheckedRegistrationV3,
  moveFromV2?: { commitment: string; idTag: string },
): Promise<{ inserted: boolean; replacedDid?: string }> {
  if (registration.credentialDay !== undefined) {
    // The challenge's times never change once issued, so reading them before consuming it is safe.
    const times = await storage.challenges.times(registration.challenge);
    if (!times) throw challengeUnusable();
    const problem = challengeDayProblem(registration.credentialDay, times);
    if (problem) throw problem;
  }
  if (!(await storage.challenges.consume(registration.challenge))) throw challengeUnusable();
  if (!(await verifier.verifyClaim(registrationClaim(registration.proof, registration.publicSignals, registration.circuit)))) {
    throw badRequest('INVALID_PROOF', 'The registration proof does not hold for these values and OPRF evaluations.');
  }
  const { commitment, idTag, did, queries, credentialLeaf } = registration;
  // The leaf is in the proof's signals, so it is the one the circuit computed for this secret and issuer.
  const identity: NewIdentity = { commitment, idTag, did, queries, ...(credentialLeaf === undefined ? {} : { credentialLeaf }) };
  if (moveFromV2) return moveProven(storage, moveFromV2, identity);
  const outcome = await storage.identities.register(identity);
  if (!outcome.inserted && outcome.reusedQuery) throw evaluationReused();
  return { inserted: outcome.inserted };
}

async function moveProven(storage: Storage, from: { commitment: string; idTag: string }, to: NewIdentity) {
  const outcome = await storage.identities.moveFromV2({ from, to, evict: false });
  if (outcome.moved) {
    await storage.identities.scrubErased();
    return { inserted: true, replacedDid: outcome.replacedDid };
  }
  if (outcome.reason === 'reused-query') throw evaluationReused();
  if (outcome.reason === 'would-evict') {
    throw badRequest(
      'MOVE_WOULD_EVICT',
      'Another registration holds this ID or this biometric under protocol v3, and a move made on this device cannot show they are yours. Move on the server instead: it receives your ID and biometric once, derives both versions from them, and replaces any registration made under them.',
    );
  }
  throw badRequest('V2_IDENTITY_NOT_FOUND', 'No protocol v2 identity holds this commitment and ID: nothing to move.');
}

const evaluationReused = () =>
  badRequest('EVALUATION_REUSED', 'An OPRF evaluation of this registration was used by another one. Please start again.');
