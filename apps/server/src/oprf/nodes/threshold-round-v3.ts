import { chooseFittingSubset, ThresholdUnavailableError } from '@zeroid/protocol';
import { blindQuery, lagrangeCoefficients, Point, unblindEvaluation } from '@zeroid/protocol/v3';
import { numberToBytesBE } from '@noble/curves/utils.js';
import { encodeV3Points, v3VerifiedBatch } from '../batch-v3.ts';
import type { OprfNodeSetV3 } from './oprf-node-set.ts';
import type { OprfTask } from './sodium-threshold-round.ts';
import { verifiedAnswers } from './verified-answers.ts';

/** Σ λᵢ·Pᵢ over `indices`, with the Lagrange coefficients at 0: "interpolation in the exponent". */
const interpolate = (indices: readonly number[], value: (index: number) => Point) =>
  lagrangeCoefficients(indices).reduce((sum, lambda, i) => sum.add(value(indices[i]!).multiplyUnsafe(lambda)), Point.ZERO);

/**
 * Protocol v3's threshold round for the server's raw path (decision 058), the counterpart of
 * `sodiumThresholdRound`: the tasks blinded once (`blindQuery`, additive), their points sent together
 * to each node's /oprf/batch with `suite`, each node's answer (Z₁ ‖ … ‖ e ‖ s) checked with
 * `verifyDleqBatch` against that node's v3 Kᵢ, the first t verified answers whose Kᵢ interpolate to
 * the v3 group key (`chooseFittingSubset`, the rule of decision 033) combined per point, Z = Σ λᵢ·Zᵢ, then
 * unblinded with the group key and finalized: y as 32 big-endian bytes, exactly what the single v3
 * key gives (`babyJubjubSuite.evaluate`).
 *
 * `finalize` names in `rejected` the answers that fail (a wrong length, a bad point or proof, an
 * unknown or repeated index) and in `inconsistent` those that verified but do not fit the chosen ones.
 * @throws ThresholdUnavailableError from `finalize` when no t verified answers may be combined.
 */
export function v3ThresholdRound({ groupKey, shares, threshold }: OprfNodeSetV3, tasks: readonly OprfTask[]) {
  if (tasks.length < 1) throw new RangeError('A round evaluates at least one input');
  const rounds = tasks.map(({ domain, normalised }) => blindQuery(domain, normalised));
  const blinded = rounds.map((round) => round.blinded);
  return {
    /** The points back to back, as a node's /oprf/batch with `suite` reads them (and the admission signs). */
    request: encodeV3Points(blinded),
    finalize(answers: readonly { index: number; evaluation: Uint8Array }[]) {
      const { good, rejected } = verifiedAnswers(answers, (index, evaluation) => {
        const publicKey = shares.get(index);
        return publicKey && v3VerifiedBatch(publicKey, blinded, evaluation);
      });
      const { chosen, inconsistent } = chooseFittingSubset([...good.keys()], threshold, (indices) =>
        interpolate(indices, (index) => shares.get(index)!).equals(groupKey),
      );
      if (!chosen) throw new ThresholdUnavailableError(threshold, good.size, rejected, inconsistent);
      const outputs = rounds.map((round, i) => {
        const evaluated = interpolate(chosen, (index) => good.get(index)![i]!);
        return numberToBytesBE(unblindEvaluation(round, groupKey, evaluated).output, 32);
      });
      return { outputs, rejected, inconsistent };
    },
  };
}
