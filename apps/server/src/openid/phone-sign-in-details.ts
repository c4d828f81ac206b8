import { issueChallenge, type ChallengeServices } from '../proofs/challenges.ts';
import { openPhoneSignIn, type PhoneSignInServices } from './open-phone-sign-in.ts';

/**
 * What the phone shows and proves for (decision 029): the site that asks, the scope of its sector, a
 * one-time challenge and the interaction id the proof's message binds it to.
 */
export async function phoneSignInDetails(
  services: PhoneSignInServices & ChallengeServices,
  id: string,
  log: { error(details: object, message: string): void },
) {
  const { uid, site, scope, asksCredential } = await openPhoneSignIn(services, id, log);
  const { challenge, expiresAt } = await issueChallenge(services);
  return { site, scope, challenge, expiresAt, asksCredential, uid };
}
