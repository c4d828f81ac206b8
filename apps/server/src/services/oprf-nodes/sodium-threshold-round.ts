import { oprfInput, ThresholdUnavailableError, type OprfDomain, type OprfPublicShare } from '@zeroid/protocol';
import { sodiumBlind, sodiumCombine, sodiumFinalizeUnblinded, sodiumUnblinder, sodiumVerifiedEvaluations } from '../sodium-voprf.ts';

/** One value to evaluate: its OPRF domain and its normalised text. */
export type OprfTask = { domain: OprfDomain; normalised: string };

/**
 * `blindThresholdOprfInput` (packages/protocol, which the browser runs) on libsodium, for the
 * server's raw path in threshold mode (decision 026), for a batch of inputs at once (decision 027:
 * a registration's biometric and ID go to each node in one request, with one DLEQ proof for both):
 * the same checks of each node's proof against its Kᵢ, the same Lagrange combination and RFC 9497
 * Finalize, so the same outputs. Call it after `libsodiumReady`.
 *
 * `finalize` checks every answer it is given; `rejected` lists the indices whose answers failed
 * (malformed, a proof that does not verify against that node's Kᵢ for the whole batch, an unknown or
 * repeated index).
 * @throws ThresholdUnavailableError from `finalize` when fewer than `threshold` answers verify.
 */
export function sodiumThresholdRound(publicShares: readonly OprfPublicShare[], threshold: number, tasks: readonly OprfTask[]) {
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('The threshold is a positive integer');
  if (tasks.length < 1 || tasks.length > 0xffff) throw new RangeError('A round evaluates 1 to 65535 inputs');
  const keys = new Map(publicShares.map(({ index, publicKey }) => [index, publicKey]));
  const inputs = tasks.map(({ domain, normalised }) => oprfInput(domain, normalised));
  const blinds = inputs.map(sodiumBlind);
  const blinded = blinds.map((b) => b.blinded);
  return {
    /** The serialized EvaluationRequest: a 2-byte count, then the blinded elements in the tasks' order. */
    request: Uint8Array.from([tasks.length >> 8, tasks.length & 0xff, ...blinded.flatMap((element) => [...element])]),
    finalize(answers: readonly { index: number; evaluation: Uint8Array }[]): { outputs: Uint8Array[]; rejected: number[] } {
      const rejected: number[] = [];
      const good: { index: number; elements: Uint8Array[] }[] = [];
      const answered = new Set<number>();
      for (const { index, evaluation } of answers) {
        const publicKey = keys.get(index);
        const elements = publicKey && !answered.has(index) ? sodiumVerifiedEvaluations(publicKey, blinded, evaluation) : undefined;
        if (elements) good.push({ index, elements });
        else rejected.push(index);
        answered.add(index);
      }
      if (good.length < threshold) throw new ThresholdUnavailableError(threshold, good.length, rejected);
      const chosen = good.slice(0, threshold);
      const outputs = inputs.map((input, i) =>
        sodiumFinalizeUnblinded(
          input,
          sodiumCombine(
            chosen.map(({ index, elements }) => ({ index, element: elements[i]! })),
            sodiumUnblinder(blinds[i]!.blind),
          ),
        ),
      );
      return { outputs, rejected };
    },
  };
}
