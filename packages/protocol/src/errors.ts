/** Why a value from outside was refused. Messages are for people and never quote the value. */
export type ProtocolInputErrorCode =
  | 'EMPTY_INPUT'
  | 'INPUT_TOO_LONG'
  | 'INVALID_ELEMENT'
  | 'INVALID_PROOF'
  | 'INVALID_SIGNATURE'
  | 'DEGENERATE_KEY'
  | 'MALFORMED_TEXT'
  | 'MALFORMED_CREDENTIAL'
  | 'ISSUER_NOT_TRUSTED'
  | 'CREDENTIAL_SIGNATURE_INVALID'
  | 'CREDENTIAL_EXPIRED';

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

/**
 * The published public shares Kᵢ of a threshold OPRF key do not all lie on one polynomial of degree
 * t−1 whose value at 0 is the group public key: a node publishes a key that is not its share of the
 * group key (a misconfiguration or a node trying to tag people). `indices` are the nodes that do not
 * fit; empty when there were too few shares to tell.
 */
export class ThresholdKeyMismatchError extends Error {
  constructor(
    readonly indices: number[],
    message = indices.length === 0
      ? 'Too few OPRF node public keys to check them against the group key.'
      : `The public keys of OPRF node(s) ${indices.join(', ')} do not interpolate to the group key.`,
  ) {
    super(message);
    this.name = 'ThresholdKeyMismatchError';
  }
}

/**
 * Fewer than t OPRF nodes gave answers that may be combined, so no output can be formed. No output is
 * guessed: the caller asks again later (the API answers 503). `rejected` names the nodes whose answers
 * failed their proof (never trusted), `verified` counts the good ones, and `inconsistent` names nodes
 * whose answers verified but whose keys do not interpolate to the group key with the others (a share
 * from before a refresh, or of another split).
 */
export class ThresholdUnavailableError extends Error {
  constructor(
    readonly needed: number,
    readonly verified: number,
    readonly rejected: number[],
    readonly inconsistent: number[] = [],
  ) {
    super(
      `Only ${verified} of the ${needed} OPRF nodes needed gave a verifiable answer` +
        (rejected.length > 0 ? ` (node(s) ${rejected.join(', ')} answered wrongly)` : '') +
        (inconsistent.length > 0 ? `; the keys of node(s) ${inconsistent.join(', ')} do not interpolate to the group key together.` : '.'),
    );
    this.name = 'ThresholdUnavailableError';
  }
}
