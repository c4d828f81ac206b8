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

const SESSION_NOT_FOUND = {
  /** The screen's view: no such session, or not this screen's. */
  session: 'This verification session does not exist.',
  /** A pending session's QR code: the session ended or never was. */
  pending: 'This verification session does not exist or is no longer open.',
  /** The phone's side of a sign-in (decision 029): the session no longer waits for a proof. */
  signIn: 'This sign-in link has expired or was already used. Ask the other screen for a new QR code.',
} as const;

/** A cross-device session that does not exist, or no longer waits for what was asked of it. */
export const sessionNotFound = (seen: keyof typeof SESSION_NOT_FOUND = 'session') =>
  new Problem(404, 'SESSION_NOT_FOUND', SESSION_NOT_FOUND[seen]);

/**
 * Blinded OPRF input that is not `max` (1 by default) valid points of `group` (canonical, on the curve,
 * in the subgroup, not the identity), refused before it spends anything; `'each'` for one of a
 * registration's two points.
 */
export const invalidElement = (group: 'ristretto255' | 'Baby Jubjub', max: number | 'each' = 1) =>
  badRequest(
    'INVALID_ELEMENT',
    max === 'each'
      ? `A blinded point is not one valid ${group} point.`
      : max === 1
        ? `The blinded element is not one valid ${group} point.`
        : `The request is not 1 to ${max} valid ${group} points.`,
  );

/**
 * A 429 before anything was evaluated: `what` came too often from this client. With `retryAfterSeconds`
 * the message and Retry-After say when to come back; without, a moment.
 */
export const rateLimited = ({ what, retryAfterSeconds }: { what: 'requests' | 'guesses'; retryAfterSeconds?: number }) =>
  new Problem(
    429,
    'RATE_LIMITED',
    `Too many ${what}. ${retryAfterSeconds === undefined ? 'Please wait a moment and try again.' : `Please try again in ${retryAfterSeconds} seconds.`}`,
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );
