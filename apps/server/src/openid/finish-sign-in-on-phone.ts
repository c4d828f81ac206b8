import type { InteractionResults } from 'oidc-provider';
import { Problem, sessionSecretRequired, signInNotFound } from '../problem.ts';
import { confirmSession, wrongCode } from '../sessions/session-confirmation.ts';
import { sessionSecretMatches } from '../sessions/session-secret.ts';
import type { Storage } from '../storage/types.ts';
import type { TrustedIssuer } from '../credentials/trusted-issuers.ts';

/**
 * The sign-in screen finishes a sign-in proved on a phone (decision 029), once the session has
 * completed: the screen must hold the session's secret, and the session must be this authorization
 * request's. The answer is the login with the pseudonym the phone proved, once this screen's person
 * has typed the code the phone shows (decision 035), or access_denied. A credential the phone proved
 * (decision 088) goes with the login if its issuer is still trusted; the site is then told of it.
 */
export async function finishSignInOnPhone(
  { storage, config }: { storage: Storage; config: { trustedIssuers: readonly TrustedIssuer[] } },
  uid: string,
  id: string,
  secret: string | undefined,
  code: string | undefined,
): Promise<InteractionResults> {
  const session = await storage.sessions.find(id);
  if (session?.signIn !== uid) throw signInNotFound();
  if (!sessionSecretMatches(session.secretHash, secret)) throw sessionSecretRequired();
  if (session.status === 'pending') throw new Problem(409, 'SESSION_PENDING', 'The phone has not finished yet.');
  const denied: InteractionResults = { error: 'access_denied', error_description: 'The person did not sign in on their phone.' };
  if (session.status !== 'success' || session.subject === undefined) return denied;
  if (code === undefined) throw new Problem(400, 'CONFIRMATION_CODE_REQUIRED', 'Type the code your phone shows.');
  // The subject was read before the confirmation clears it; it is written once, with the success.
  const { confirmed, attemptsLeft } = await confirmSession(storage, session.id, code);
  if (!confirmed && attemptsLeft > 0) throw wrongCode(attemptsLeft);
  if (!confirmed) return denied;
  const issuer = config.trustedIssuers.find((trusted) => trusted.publicKey === session.credentialIssuer);
  const credential = issuer && { credential_issuer: issuer.publicKey, credential_issuer_name: issuer.name };
  return { login: { accountId: session.subject, remember: false }, ...(credential ? { credential } : {}) };
}
