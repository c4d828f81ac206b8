import { ristretto255 } from '@noble/curves/ed25519.js';
import { DLEQVerifier, Evaluation, Oprf, VOPRFClient, type Elt } from '@cloudflare/voprf-ts';
import { chooseCombinableAnswers } from './combinable-shares.ts';
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

/** What a threshold client knows of the key: the group key K, the threshold t and the nodes' Kᵢ. */
export interface ThresholdKeys {
  groupPublicKey: Uint8Array;
  threshold: number;
  publicShares: readonly OprfPublicShare[];
}

/** One blinded input for t-of-n nodes: the request to send, and the combination of their answers. */
export interface ThresholdBlinding {
  request: Uint8Array;
  finalize(
    answers: { index: number; evaluation: Uint8Array }[],
  ): Promise<{ output: Uint8Array; rejected: number[]; inconsistent: number[] }>;
}

/**
 * The client side of one threshold round: blind once, send `request` (the same bytes as
 * blindOprfInput's request, i.e. the existing POST /oprf body element) to ≥ t nodes; `finalize`
 * verifies each node's answer (the existing serialized Evaluation with its DLEQ proof) against that
 * node's Kᵢ, leaves out and reports the ones that fail, combines t good ones by Lagrange
 * interpolation in the exponent, and finalizes as RFC 9497 says.
 *
 * Node i answers Zᵢ = kᵢ·B for the blinded B = r·H(x); with λᵢ the Lagrange coefficients at 0 of any
 * t indices, Σ λᵢ·Zᵢ = (Σ λᵢ·kᵢ)·B = k·B, which is exactly the single-key evaluation, so the output
 * equals what `blindOprfInput` gives against the group key. That holds only when the t chosen Kᵢ
 * interpolate to the group key: `finalize` combines only such a set (`chooseCombinableAnswers`), so
 * a node on an old or foreign share whose own proofs verify is left out (`inconsistent`), never
 * combined into a wrong output (decision 033).
 *
 * `finalize` may be called again with more answers (for example after a node timed out); every answer
 * it is given is checked, and `rejected` lists the indices whose answers failed (wrong or malformed
 * evaluation or proof, an index not among `publicShares`, or a repeated index).
 * @throws ThresholdUnavailableError from `finalize` when no t verified answers may be combined.
 */
export async function blindThresholdOprfInput(
  { groupPublicKey, threshold, publicShares }: ThresholdKeys,
  domain: OprfDomain,
  normalised: string,
): Promise<ThresholdBlinding> {
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('The threshold is a positive integer');
  const keys = new Map(publicShares.map(({ index, publicKey }) => [index, publicKey]));
  const client = new ThresholdVoprfClient();
  const [finalizeData, evaluationRequest] = await client.blind([oprfInput(domain, normalised)]);
  const [blinded] = evaluationRequest.blinded;
  return {
    request: evaluationRequest.serialize(),
    async finalize(answers) {
      const rejected: number[] = [];
      const good = new Map<number, Elt>();
      for (const { index, evaluation: serialized } of answers) {
        const publicKey = keys.get(index);
        let evaluation: Evaluation | undefined;
        try {
          evaluation = Evaluation.deserialize(OPRF_SUITE, serialized, OPRF_CRYPTO);
          if (!publicKey || good.has(index) || rejected.includes(index) || !(await client.proves(publicKey, blinded!, evaluation)))
            evaluation = undefined;
        } catch {
          evaluation = undefined;
        }
        if (evaluation) good.set(index, evaluation.evaluated[0]!);
        else rejected.push(index);
      }
      const { chosen, inconsistent } = chooseCombinableAnswers(groupPublicKey, keys, [...good.keys()], threshold);
      if (!chosen) throw new ThresholdUnavailableError(threshold, good.size, rejected, inconsistent);
      const lambdas = lagrangeCoefficients(chosen);
      const combined = chosen
        .map((index, i) => good.get(index)!.mul(client.group.desScalar(ristretto255.Point.Fn.toBytes(lambdas[i]!))))
        .reduce((sum, term) => sum.add(term));
      const [output] = await client.doFinalize(finalizeData, new Evaluation(Oprf.Mode.VOPRF, [combined]));
      return { output: output!, rejected, inconsistent };
    },
  };
}
