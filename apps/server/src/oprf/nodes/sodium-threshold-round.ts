import { chooseCombinableAnswers, oprfInput, ThresholdUnavailableError, type OprfDomain, type ThresholdKeys } from '@zeroid/protocol';
import { verifiedAnswers } from './verified-answers.ts';
import { sodiumBlind, sodiumCombine, sodiumFinalizeUnblinded, sodiumUnblinder, sodiumVerifiedEvaluations } from '../sodium-voprf.ts';

/** One value to evaluate: its OPRF domain and its normalised text. */
export type OprfTask = { domain: OprfDomain; normalised: string };

/**
 * `blindThresholdOprfInput` (packages/protocol, which the browser runs) on libsodium, for the
 * server's raw path in threshold mode (decision 026), for a batch of inputs at once (decision 027:
 * a registration's biometric and ID go to each node in one request, with one DLEQ proof for both):
 * the same checks of each node's proof against its Kᵢ, the same rule for which answers may be
 * combined (their Kᵢ interpolate to the group key: `chooseCombinableAnswers`), the same Lagrange
 * combination and RFC 9497 Finalize, so the same outputs. Call it after `libsodiumReady`.
 *
 * `finalize` checks every answer it is given; `rejected` lists the indices whose answers failed
 * (malformed, a proof that does not verify against that node's Kᵢ for the whole batch, an unknown or
 * repeated index), `inconsistent` those whose answers verified but whose Kᵢ do not fit the chosen
 * ones (a node on an old share, or on another split's).
 * @throws ThresholdUnavailableError from `finalize` when no `threshold` verified answers may be combined.
 */
export function sodiumThresholdRound({ groupPublicKey, threshold, publicShares }: ThresholdKeys, tasks: readonly OprfTask[]) {
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('The threshold is a positive integer');
  if (tasks.length < 1 || tasks.length > 0xffff) throw new RangeError('A round evaluates 1 to 65535 inputs');
  const keys = new Map(publicShares.map(({ index, publicKey }) => [index, publicKey]));
  const inputs = tasks.map(({ domain, normalised }) => oprfInput(domain, normalised));
  const blinds = inputs.map(sodiumBlind);
  const blinded = blinds.map((b) => b.blinded);
  return {
    /** The serialized EvaluationRequest: a 2-byte count, then the blinded elements in the tasks' order. */
    request: Uint8Array.from([tasks.length >> 8, tasks.length & 0xff, ...blinded.flatMap((element) => [...element])]),
    finalize(answers: readonly { index: number; evaluation: Uint8Array }[]): {
      outputs: Uint8Array[];
      rejected: number[];
      inconsistent: number[];
    } {
      const { good, rejected } = verifiedAnswers(answers, (index, evaluation) => {
        const publicKey = keys.get(index);
        return publicKey && sodiumVerifiedEvaluations(publicKey, blinded, evaluation);
      });
      const { chosen, inconsistent } = chooseCombinableAnswers(groupPublicKey, keys, [...good.keys()], threshold);
      if (!chosen) throw new ThresholdUnavailableError(threshold, good.size, rejected, inconsistent);
      const outputs = inputs.map((input, i) =>
        sodiumFinalizeUnblinded(
          input,
          sodiumCombine(
            chosen.map((index) => ({ index, element: good.get(index)![i]! })),
            sodiumUnblinder(blinds[i]!.blind),
          ),
        ),
      );
      return { outputs, rejected, inconsistent };
    },
  };
}
