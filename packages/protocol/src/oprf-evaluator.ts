import { ristretto255 } from '@noble/curves/ed25519.js';
import { EvaluationRequest, VOPRFServer } from '@cloudflare/voprf-ts';
import { ProtocolInputError } from './errors.ts';
import { nobleRistrettoMultiply, voprfEvaluate, type RistrettoMultiply } from './voprf-evaluate.ts';
import { OPRF_CRYPTO, OPRF_SUITE, oprfInput, oprfPublicKey, type OprfDomain } from './oprf-suite.ts';

const ELEMENT_BYTES = 32;
const invalid = () => new ProtocolInputError('INVALID_ELEMENT', 'The blinded element is not one valid ristretto255 point.');

/**
 * The server's side of the OPRF. `blindEvaluate` is the brute-force gate: every guess at a biometric
 * or ID must pass through it, so it accepts exactly one canonical, non-identity ristretto255 element
 * and nothing else (voprf-ts itself would multiply the identity element, and would evaluate a whole
 * batch). `evaluate` computes the same output directly, for the raw path where the server holds
 * the raw input on the client's behalf.
 */
export class OprfEvaluator {
  readonly publicKey: Uint8Array;
  private readonly server: VOPRFServer;

  /** `multiply` does the group work of `evaluate`; noble's by default (the server passes libsodium's). */
  constructor(
    private readonly privateKey: Uint8Array,
    private readonly multiply: RistrettoMultiply = nobleRistrettoMultiply,
  ) {
    this.publicKey = oprfPublicKey(privateKey);
    this.server = new VOPRFServer(OPRF_SUITE, privateKey, OPRF_CRYPTO);
  }

  /** The finalized PRF output for a normalised input: what the client would compute after a round. */
  async evaluate(domain: OprfDomain, normalised: string): Promise<Uint8Array> {
    return voprfEvaluate(this.privateKey, oprfInput(domain, normalised), this.multiply);
  }

  /**
   * Evaluates one blinded element (a serialized EvaluationRequest: a 2-byte big-endian count, then the
   * elements) and returns the serialized Evaluation with its DLEQ proof.
   * @throws ProtocolInputError('INVALID_ELEMENT') for anything but exactly one valid element.
   */
  async blindEvaluate(request: Uint8Array): Promise<Uint8Array> {
    assertBlindedRequest(request);
    const evaluation = await this.server.blindEvaluate(EvaluationRequest.deserialize(OPRF_SUITE, request, OPRF_CRYPTO));
    return evaluation.serialize();
  }
}

/**
 * Checks that a serialized EvaluationRequest holds exactly one canonical, non-identity ristretto255
 * element, without evaluating it: the server refuses a malformed round before it spends an attempt.
 * @throws ProtocolInputError('INVALID_ELEMENT') otherwise.
 */
export function assertBlindedRequest(request: Uint8Array): void {
  if (request.length !== 2 + ELEMENT_BYTES || request[0] !== 0 || request[1] !== 1) throw invalid();
  let point;
  try {
    point = ristretto255.Point.fromBytes(request.subarray(2));
  } catch {
    throw invalid();
  }
  if (point.is0()) throw invalid();
}
