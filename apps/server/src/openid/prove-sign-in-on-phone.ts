import { nullifierSubject, type WireCredentialSignInProof, type WireSemaphoreProof } from '@zeroid/protocol';
import type { AdmitGuess } from '../limits/spend-guess.ts';
import { staleProof } from '../problem.ts';
import type { ProofCheckServices } from '../proofs/membership-check-deps.ts';
import { settleSession } from '../sessions/settle-session.ts';
import { checkSignInProof } from './check-sign-in-proof.ts';
import { checkCredentialSignInProof, type CredentialProofServices } from './check-credential-sign-in-proof.ts';
import { openPhoneSignIn, type PhoneSignInServices } from './open-phone-sign-in.ts';

/**
 * The phone's proof for a sign-in (decision 029), checked by every rule of the on-screen sign-in with
 * the same binding: the scope of the site's sector and the challenge bound to this authorization
 * request, both from the server's records, never from the phone. An accepted proof completes the
 * session with its pseudonym, once, and gives the code the phone shows; the screen finishes only once
 * its person has typed it (decision 035). A stale proof is a 409, counted as a failed verification.
 * When the site asked for `credential` (decision 088), a credential proof is checked first, as on the
 * screen, and the issuer it proves is kept with the pseudonym for the screen to finish with.
 */
export async function proveSignInOnPhone(
  services: ProofCheckServices & PhoneSignInServices & CredentialProofServices,
  admit: AdmitGuess,
  id: string,
  proof: WireSemaphoreProof,
  challenge: string,
  log: { error(details: object, message: string): void },
  credentialProof?: WireCredentialSignInProof,
) {
  const { uid, scope, asksCredential } = await openPhoneSignIn(services, id, log);
  const binding = { scope, uid, challenge };
  // Sent when not asked: ignored, never checked nor stored.
  const credential =
    asksCredential && credentialProof ? await checkCredentialSignInProof(services, credentialProof, proof.nullifier, binding) : undefined;
  const verdict = await checkSignInProof(services, admit, proof, binding);
  if (verdict === 'Stale') {
    services.metrics.verifications.inc({ mode: 'zk', result: 'Failure' });
    throw staleProof();
  }
  const { verdict: result, confirmationCode } = await settleSession(
    services.storage,
    id,
    verdict,
    nullifierSubject(proof.nullifier),
    credential?.credential_issuer,
  );
  services.metrics.verifications.inc({ mode: 'zk', result });
  return { session: id, result, ...(confirmationCode === undefined ? {} : { confirmationCode }) };
}
