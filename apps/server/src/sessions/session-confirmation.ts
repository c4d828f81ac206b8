import { createHash, randomInt } from 'node:crypto';
import type { Storage } from '../storage/types.ts';
import { Problem } from '../problem.ts';

/** Wrong codes the screen's person may type before the session fails. */
export const CONFIRMATION_ATTEMPTS = 5;
/** How long after the session's expiry its code may still be typed: the phone may finish in its last second. */
export const CONFIRMATION_GRACE_MS = 2 * 60_000;

/**
 * The confirmation code of a cross-device session (decision 035): six random digits, given only to
 * the phone whose verdict completed the session, in the reply to that very request. The screen moves
 * on only once its person has typed them, so a phone the person does not hold (an attacker who saw
 * the QR code) cannot complete the screen's sign-in or verification: its code is on the attacker's
 * phone, not in front of the person. The database keeps a hash only.
 */
export function newConfirmationCode(session: string): { code: string; hash: string } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, hash: confirmationHash(session, code) };
}

/** SHA-256 of the domain-separated session id and code: a code typed for one session confirms no other. */
export function confirmationHash(session: string, code: string): string {
  return createHash('sha256').update(`zeroid/session-confirmation/v1\u0000${session}\u0000${code}`).digest('hex');
}

/** The screen's person typed `code`: confirmed once if it is the phone's (CONFIRMATION_ATTEMPTS tries, then the session fails). */
export function confirmSession(storage: Storage, session: string, code: string) {
  return storage.sessions.confirm(session, confirmationHash(session, code), {
    maxAttempts: CONFIRMATION_ATTEMPTS,
    confirmableUntil: CONFIRMATION_GRACE_MS,
  });
}

/** A code that is not the phone's; `attemptsLeft` more may be typed. */
export const wrongCode = (attemptsLeft: number) =>
  new Problem(
    400,
    'CONFIRMATION_CODE_WRONG',
    `That is not the code your phone shows. ${attemptsLeft === 1 ? 'One more try' : `${attemptsLeft} more tries`}, then this code expires.`,
  );
