import type { WireSemaphoreProof } from '@zeroid/protocol';
import { PROOF_VERIFICATION, RAW_VERIFICATION } from '../limits/guess-costs.ts';
import { spendGuess, type AdmitGuess } from '../limits/spend-guess.ts';
import { membershipCheckDeps, type ProofCheckServices } from '../proofs/membership-check-deps.ts';
import { verifyMembershipProof, type ProofVerdict } from '../proofs/verify-membership-proof.ts';
import { sessionIsOpen, settleSession, type Settlement } from '../sessions/settle-session.ts';
import type { RawDeriver } from './raw/raw-deriver.ts';
import type { NoisyIrisCode } from '../noisy/read-noisy-bio.ts';
import { noisyCommitments } from '../noisy/noisy-commitments.ts';

/**
 * A verification request checked to be well formed: a parsed proof, or a normalised raw biometric,
 * read as a noisy template too when the experimental flag is on and it is one (decision 084).
 */
export type Claim = { proof: WireSemaphoreProof; bioInfo?: never } | { bioInfo: string; noisy?: NoisyIrisCode; proof?: never };

/** What a verification is handed: the proof check's services, and the raw path's deriver. */
export type VerifyServices = ProofCheckServices & { deriver: RawDeriver };

/**
 * The verification use case (POST /verify), in the order of the domain's rules:
 * 1. admission: the claim was checked to be well formed before this is called, so a malformed
 *    request spends nothing; here a failure is reserved (and a guess, on the raw path), given back on
 *    Success, on a stale proof and on an error (`spendGuess`);
 * 2. the session, if any, must still wait for a plain verification;
 * 3. the proof's every rule (`verifyMembershipProof`), or, on the specification's raw path, the
 *    commitments derived from `bio_info` (protocol v3's, then v2's) looked up in the identities;
 * 4. the session is settled with the verdict, once, and a Success gives its confirmation code.
 * A stale proof (its root left the window) is a Failure for the client but no failed guess.
 */
export async function verifyClaim(
  services: VerifyServices,
  admit: AdmitGuess,
  claim: Claim,
  session: string | undefined,
  client: string,
): Promise<Settlement> {
  const spend = () =>
    spendGuess(
      admit,
      claim.proof ? PROOF_VERIFICATION : RAW_VERIFICATION,
      () => verdictFor(services, claim, session, client),
      (settled) => settled.verdict === 'Failure',
    );
  // A noisy reading enters the gate first (decision 084): refused there, it spent nothing.
  const { verdict, confirmationCode } = !claim.proof && claim.noisy ? await services.deriver.noisyGate!.run(spend) : await spend();
  return { verdict: verdict === 'Stale' ? 'Failure' : verdict, ...(confirmationCode === undefined ? {} : { confirmationCode }) };
}

async function verdictFor(
  services: VerifyServices,
  claim: Claim,
  session: string | undefined,
  client: string,
): Promise<{ verdict: ProofVerdict; confirmationCode?: string }> {
  const { storage, deriver, metrics } = services;
  if (!(await sessionIsOpen(storage, session))) return { verdict: 'Failure' };
  if (claim.proof) {
    const verdict = await verifyMembershipProof(membershipCheckDeps(services), claim.proof, session);
    if (verdict === 'Stale') {
      metrics.verifications.inc({ mode: 'zk', result: 'Failure' });
      return { verdict };
    }
    const settled = await settleSession(storage, session, verdict);
    metrics.verifications.inc({ mode: 'zk', result: settled.verdict });
    return settled;
  }
  if (claim.noisy) {
    // One reading, one guess, whatever number of lockers it evaluates (decision 084). The same text's
    // exact identity too, in the same attempt and the same read: a person registered from this text
    // before the flag was on still verifies with it.
    const [opened, exact] = await Promise.all([noisyCommitments(services, claim.noisy, client), deriver.commitment(claim.bioInfo, client)]);
    metrics.oprfEvaluations.inc({ kind: 'direct' }, 2);
    const found = await storage.identities.holdsAnyCommitment([...opened, exact.v3, exact.v2]);
    const settled = await settleSession(storage, session, found ? 'Success' : 'Failure');
    metrics.verifications.inc({ mode: 'raw', result: settled.verdict });
    return settled;
  }
  // One biometric, one guess, under both versions: the v3 identity every registration now makes, else
  // the v2 one an identity registered before protocol v3 still holds (decision 056).
  const commitments = await deriver.commitment(claim.bioInfo, client);
  metrics.oprfEvaluations.inc({ kind: 'direct' }, 2);
  // One read for both (decision 073): a move from v2 committing between two reads would make a
  // registered person fail, found under neither version.
  const found = await storage.identities.holdsAnyCommitment([commitments.v3, commitments.v2]);
  const settled = await settleSession(storage, session, found ? 'Success' : 'Failure');
  metrics.verifications.inc({ mode: 'raw', result: settled.verdict });
  return settled;
}
