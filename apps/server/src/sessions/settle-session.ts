import type { Verdict } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';
import { newConfirmationCode } from './session-confirmation.ts';

/** A verdict as the client sees it, with the session's confirmation code after a Success that completed one. */
export interface Settlement {
  verdict: Verdict;
  confirmationCode?: string;
}

/**
 * Completes a cross-device session with a verification's verdict, once. A Success for a session that
 * is unknown, expired or already completed becomes a Failure: the phone's proof may be valid, but
 * the screen that asked is no longer waiting for it. A Success gives the phone the session's
 * confirmation code (decision 035), which the screen's person must type before the screen moves on;
 * a phone's sign-in (decision 029) stores the pseudonym it proved, in the same conditional UPDATE.
 */
export async function settleSession(
  storage: Storage,
  session: string | undefined,
  verdict: Verdict,
  subject?: string,
  credentialIssuer?: string,
): Promise<Settlement> {
  if (session === undefined) return { verdict };
  if (verdict === 'Failure') {
    await storage.sessions.complete(session, 'failure');
    return { verdict };
  }
  const { code, hash } = newConfirmationCode(session);
  const completed = await storage.sessions.complete(session, 'success', undefined, { subject, confirmationHash: hash, credentialIssuer });
  return completed ? { verdict, confirmationCode: code } : { verdict: 'Failure' };
}

/**
 * True when no session is involved, or the session is still waiting for a plain verification. A
 * session that finishes a sign-in (decision 029) is completed only by a proof for the site's sector,
 * through POST /sessions/:id/sign-in, never by /verify.
 */
export async function sessionIsOpen(storage: Storage, session: string | undefined): Promise<boolean> {
  if (session === undefined) return true;
  const found = await storage.sessions.find(session);
  return found?.status === 'pending' && found.signIn === undefined;
}

/**
 * The phone found that its biometric is not registered (its commitment is absent from its bucket)
 * and sent no proof: the session fails now, so the screen stops waiting. It can only turn a pending
 * session into a Failure, which anyone holding the QR code could already do with a bad proof.
 */
export async function reportSessionFailure(storage: Storage, session: string): Promise<void> {
  await storage.sessions.complete(session, 'failure');
}
