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
