// The cross-device sessions' contract: what a screen and a phone read and write (decisions 029, 035, 047).

export type SessionStatus = 'pending' | 'success' | 'failure' | 'expired';

export interface StoredSession {
  id: string;
  status: SessionStatus;
  expiresAt: Date;
  /** SHA-256 (hex) of the creating screen's secret; null for sessions created before it existed. */
  secretHash: string | null;
  /** For a sign-in on a phone (decision 029): the authorization request (interaction id) it finishes. */
  signIn?: string;
  /** For a sign-in on a phone that succeeded: the pseudonym (`sub`) the phone's proof gave. */
  subject?: string;
  /** With `subject`, when the phone's sign-in also proved a credential (decision 088): the issuer's public key. */
  credentialIssuer?: string;
  /** A success whose code the screen's person typed (decision 035): only then is it the screen's. */
  confirmed?: true;
  /** A phone has opened the pending session's link (decision 047: in the row, seen by every process). */
  phoneOpened?: true;
}

/** What a screen following a session may have to hear about: a phone opened it, or it completed. */
export type SessionChange = Pick<StoredSession, 'confirmed' | 'phoneOpened'> & { status: 'pending' | 'success' | 'failure' };

export interface SessionRepository {
  /** A new pending session; `signIn` ties it to one authorization request for good (decision 029). */
  create(id: string, expiresAt: Date, secretHash: string, signIn?: string): Promise<void>;
  /** The session and its status; a pending session past its expiry reads as 'expired'. */
  find(id: string, now?: Date): Promise<StoredSession | undefined>;
  /**
   * Which of these sessions have completed or been opened by a phone, and how, in one read: the
   * process's session watcher asks this for every session it follows, and most are still pending and
   * unopened, so the answer is usually small.
   */
  findChanged(ids: readonly string[]): Promise<Map<string, SessionChange>>;
  /**
   * A phone opened the pending session's link: marked once, in the row, so the screen hears "phone
   * connected" from whichever process follows it. True for the first mark only.
   */
  markOpened(id: string, now?: Date): Promise<boolean>;
  /**
   * Completes a pending, unexpired session: true for exactly one caller. A phone's sign-in stores its
   * `subject` in the same UPDATE, so the winner's pseudonym is the one the sign-in finishes with.
   */
  complete(
    id: string,
    status: 'success' | 'failure',
    now?: Date,
    outcome?: { subject?: string | undefined; confirmationHash?: string | undefined; credentialIssuer?: string | undefined },
  ): Promise<boolean>;
  /**
   * The screen's person typed a confirmation code (decisions 035 and 047): checked only while fewer
   * than `maxAttempts` codes have been checked, the session succeeded and has not expired more than
   * `confirmableUntil` ms ago; checking and counting are one UPDATE, so concurrent guesses get no more
   * than `maxAttempts` checks between them. The right code is accepted once; the last allowed wrong
   * one fails the session. `attemptsLeft` is what may still be typed (0 once refused unchecked). The
   * pseudonym of a sign-in's session is cleared by the confirmation (the caller read it before).
   */
  confirm(
    id: string,
    confirmationHash: string,
    rule: { maxAttempts: number; confirmableUntil: number },
    now?: Date,
  ): Promise<{ confirmed: boolean; attemptsLeft: number }>;
  /** Fails the sessions holding one of these pseudonyms and clears it (an erasure, decision 036). */
  forgetSubjects(subjects: readonly string[]): Promise<void>;
  /**
   * Clears the pseudonyms of sessions expired `subjectsAfterMs` ago or more, and deletes sessions that
   * expired over an hour ago: the number of rows cleared or deleted.
   */
  purgeExpired(now?: Date, options?: { subjectsAfterMs?: number }): Promise<number>;
}
