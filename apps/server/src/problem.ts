/**
 * An error a client caused or can act on, with the status and the `{error: {code, message}}` body it
 * becomes. Messages are written for people and never contain any part of the request.
 */
export class Problem extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'Problem';
  }
}

export const badRequest = (code: string, message: string) => new Problem(400, code, message);

/** A registration's or an erasure's challenge was never issued, has expired or was used. */
export const challengeUnusable = () =>
  badRequest('CHALLENGE_UNUSABLE', 'The challenge is unknown, expired or already used. Please try again.');

/** Storage is down, full or read-only: the client may retry, and nothing was acknowledged. */
export const unavailable = () =>
  new Problem(503, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Nothing was saved; please try again shortly.', {
    'retry-after': '5',
  });

/** A session's outcome or finish asked for without the secret of the screen that created it. */
export const sessionSecretRequired = () =>
  new Problem(403, 'SESSION_SECRET_REQUIRED', 'Only the screen that created this session can read its outcome.');

/** The proof's root left the window while it was made: nothing was learnt, and the person proves again. */
export const staleProof = () => new Problem(409, 'STALE_PROOF', 'The group changed while this proof was made. Please verify again.');

/**
 * Threshold mode: too few OPRF nodes serve what this request needs. A 503 the client may retry, whose
 * message says which part is missing; nothing was stored.
 */
export const oprfUnavailable = (message: string) => new Problem(503, 'OPRF_UNAVAILABLE', message, { 'retry-after': '5' });

/** A sign-in's interaction expired, was answered, or is not this browser's. */
export const signInNotFound = () =>
  new Problem(404, 'SIGN_IN_NOT_FOUND', 'This sign-in has expired or was already completed. Go back to the site and sign in again.');
