import { ThresholdUnavailableError } from '../errors.ts';
import { Point } from './baby-jubjub-group.ts';
import { verifyDleq, type DleqProof } from './dleq-proof.ts';
import { lagrangeCoefficients } from './threshold-key.ts';

/** One node's answer to a blinded point: its index, Zᵢ = kᵢ·B (already decoded) and its DLEQ proof. */
export interface NodeAnswer {
  index: number;
  evaluated: Point | undefined;
  proof: DleqProof;
}

/**
 * Z = k·B from t nodes' answers Zᵢ = kᵢ·B: each answer's DLEQ proof is checked against that node's
 * published Kᵢ, failures (a wrong or undecodable point, a bad proof, an unknown or repeated index) are
 * left out and named in `rejected`, and the first `threshold` good ones are combined with their
 * Lagrange coefficients at 0: Σ λᵢ·kᵢ·B = k·B. Both the browser (to unblind) and the registrar (to
 * know which Z a registration proof may name) run this. The public shares must have been checked
 * against the group key first.
 * @throws ThresholdUnavailableError when fewer than `threshold` answers verify.
 */
export function combineEvaluations(
  blinded: Point,
  publicShares: ReadonlyMap<number, Point>,
  threshold: number,
  answers: readonly NodeAnswer[],
): { evaluated: Point; used: number[]; rejected: number[] } {
  const good: { index: number; evaluated: Point }[] = [];
  const rejected: number[] = [];
  const seen = new Set<number>();
  for (const { index, evaluated, proof } of answers) {
    const publicKey = publicShares.get(index);
    const valid =
      !seen.has(index) && publicKey !== undefined && evaluated !== undefined && verifyDleq(publicKey, blinded, evaluated, proof);
    seen.add(index);
    if (valid) good.push({ index, evaluated });
    else rejected.push(index);
  }
  if (good.length < threshold) throw new ThresholdUnavailableError(threshold, good.length, rejected);
  const chosen = good.slice(0, threshold);
  const lambdas = lagrangeCoefficients(chosen.map(({ index }) => index));
  const evaluated = chosen.reduce((acc, { evaluated }, i) => acc.add(evaluated.multiplyUnsafe(lambdas[i]!)), Point.ZERO);
  return { evaluated, used: chosen.map(({ index }) => index), rejected };
}
