/** Why a value from outside was refused. Messages are for people and never quote the value. */
export type ProtocolInputErrorCode =
  'EMPTY_INPUT' | 'INPUT_TOO_LONG' | 'INVALID_ELEMENT' | 'INVALID_PROOF' | 'INVALID_SIGNATURE' | 'DEGENERATE_KEY' | 'MALFORMED_TEXT';

/** A value that entered from outside (a person or a client) is not acceptable: a 400, never a 500. */
export class ProtocolInputError extends Error {
  constructor(
    readonly code: ProtocolInputErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolInputError';
  }
}

/**
 * The OPRF server's answer did not prove (DLEQ) that it used the published key. Continuing would let
 * a server tag this one person with a key of its own, so the client stops.
 */
export class OprfProofError extends Error {
  constructor(message = 'The server could not prove it used its published key. Nothing was sent; please try again later.') {
    super(message);
    this.name = 'OprfProofError';
  }
}
