import { ristretto255 } from '@noble/curves/ed25519.js';
import { DLEQVerifier, Evaluation, Oprf, VOPRFClient, type Elt } from '@cloudflare/voprf-ts';
import { ThresholdUnavailableError } from './errors.ts';
import { lagrangeCoefficients } from './lagrange-coefficients.ts';
import { OPRF_CRYPTO, OPRF_SUITE, oprfInput, type OprfDomain } from './oprf-suite.ts';
import type { OprfPublicShare } from './threshold-oprf.ts';

/**
 * voprf-ts's VOPRF client, for its blinding and its RFC 9497 Finalize, plus the DLEQ check against
 * any one node's key (the library checks against a single server key only, inside `finalize`).
 */
class ThresholdVoprfClient extends VOPRFClient {
  constructor() {
    // The library's own proof check (and so this key) is never used: each node's proof is checked
    // against that node's Kᵢ in `proves`, and only the combined element is finalized.
    super(OPRF_SUITE, new Uint8Array(32), OPRF_CRYPTO);
  }

  /** Whether `proof` shows log_G(Kᵢ) = log_blinded(evaluated) (RFC 9497 §2.2.2 VerifyProof). */
  async proves(publicKey: Uint8Array, blinded: Elt, evaluation: Evaluation): Promise<boolean> {
    const [evaluated] = evaluation.evaluated;
    if (!evaluation.proof || evaluation.mode !== Oprf.Mode.VOPRF || evaluation.evaluated.length !== 1 || !evaluated) return false;
    const verifier = new DLEQVerifier(this.getDLEQParams(), OPRF_CRYPTO);
    return verifier.verify_batch([this.group.generator(), this.group.desElt(publicKey)], [[blinded, evaluated]], evaluation.proof);
  }
}

/**
 * The client side of one threshold round: blind once, send `request` (the same bytes as
 * blindOprfInput's request, i.e. the existing POST /oprf body element) to ≥ t nodes; `finalize`
 * verifies each node's answer (the existing serialized Evaluation with its DLEQ proof) against that
 * node's Kᵢ, leaves out and reports the ones that fail, combines the first `threshold` good ones by
 * Lagrange interpolation in the exponent, and finalizes as RFC 9497 says.
 *
 * Node i answers Zᵢ = kᵢ·B for the blinded B = r·H(x); with λᵢ the Lagrange coefficients at 0 of any
 * t indices, Σ λᵢ·Zᵢ = (Σ λᵢ·kᵢ)·B = k·B, which is exactly the single-key evaluation, so the output
 * equals what `blindOprfInput` gives against the group key. Check the public shares against the
 * group key first (`checkPublicShares`): this function trusts `publicShares`, not the nodes.
 *
 * `finalize` may be called again with more answers (for example after a node timed out); every answer
 * it is given is checked, and `rejected` lists the indices whose answers failed (wrong or malformed
 * evaluation or proof, an index not among `publicShares`, or a repeated index).
 * @throws ThresholdUnavailableError from `finalize` when fewer than `threshold` answers verify.
 */
export async function blindThresholdOprfInput(
  publicShares: OprfPublicShare[],
  threshold: number,
  domain: OprfDomain,
  normalised: string,
): Promise<{
  request: Uint8Array;
  finalize(answers: { index: number; evaluation: Uint8Array }[]): Promise<{ output: Uint8Array; rejected: number[] }>;
}> {
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('The threshold is a positive integer');
  const keys = new Map(publicShares.map(({ index, publicKey }) => [index, publicKey]));
  const client = new ThresholdVoprfClient();
  const [finalizeData, evaluationRequest] = await client.blind([oprfInput(domain, normalised)]);
  const [blinded] = evaluationRequest.blinded;
  return {
    request: evaluationRequest.serialize(),
    async finalize(answers) {
      const rejected: number[] = [];
      const good: { index: number; element: Elt }[] = [];
      const answered = new Set<number>();
      for (const { index, evaluation: serialized } of answers) {
        const publicKey = keys.get(index);
        let evaluation: Evaluation | undefined;
        try {
          evaluation = Evaluation.deserialize(OPRF_SUITE, serialized, OPRF_CRYPTO);
          if (!publicKey || answered.has(index) || !(await client.proves(publicKey, blinded!, evaluation))) evaluation = undefined;
        } catch {
          evaluation = undefined;
        }
        if (evaluation) good.push({ index, element: evaluation.evaluated[0]! });
        else rejected.push(index);
        answered.add(index);
      }
      if (good.length < threshold) throw new ThresholdUnavailableError(threshold, good.length, rejected);
      const chosen = good.slice(0, threshold);
      const lambdas = lagrangeCoefficients(chosen.map(({ index }) => index));
      const combined = chosen
        .map(({ element }, i) => element.mul(client.group.desScalar(ristretto255.Point.Fn.toBytes(lambdas[i]!))))
        .reduce((sum, term) => sum.add(term));
      const [output] = await client.doFinalize(finalizeData, new Evaluation(Oprf.Mode.VOPRF, [combined]));
      return { output: output!, rejected };
    },
  };
}
