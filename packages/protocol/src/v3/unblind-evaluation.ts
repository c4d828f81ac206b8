import { Fn, type Point } from './baby-jubjub-group.ts';
import type { BlindedQuery } from './blind-query.ts';
import { finalizeOutput } from './finalize-output.ts';

/**
 * The OPRF output of a round: N = Z − r·K = k·H₁(x), then y = H₂(x, N). `evaluated` must already be
 * checked: its DLEQ proof against K (single key) or the nodes' proofs and their combination
 * (`combineEvaluations`). With a wrong K the result is garbage, never someone else's output.
 */
export function unblindEvaluation(round: BlindedQuery, groupKey: Point, evaluated: Point): { unblinded: Point; output: bigint } {
  const unblinded = evaluated.subtract(groupKey.multiply(Fn.create(round.blind)));
  return { unblinded, output: finalizeOutput(round.query, unblinded) };
}
