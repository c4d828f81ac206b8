import { chooseFittingSubset } from '../combinable-shares.ts';
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
 * left out and named in `rejected`, and the first `threshold` good ones whose Kᵢ interpolate to the
 * group key K are combined with their Lagrange coefficients at 0: Σ λᵢ·kᵢ·B = k·B. Valid proofs alone
 * do not give that: a node on a share from before a refresh proves against its own old Kᵢ (decision 033),
 * so it is left out and named in `inconsistent`. Both the browser (to unblind) and the registrar (to
 * know which Z a registration proof may name) run this.
 * @throws ThresholdUnavailableError when no `threshold` verified answers fit K.
 */
export function combineEvaluations(
  blinded: Point,
  groupKey: Point,
  publicShares: ReadonlyMap<number, Point>,
  threshold: number,
  answers: readonly NodeAnswer[],
): { evaluated: Point; used: number[]; rejected: number[]; inconsistent: number[] } {
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
  const byIndex = new Map(good.map(({ index, evaluated }) => [index, evaluated]));
  const interpolate = (indices: readonly number[], value: (index: number) => Point) =>
    lagrangeCoefficients(indices).reduce((acc, lambda, i) => acc.add(value(indices[i]!).multiplyUnsafe(lambda)), Point.ZERO);
  const { chosen, inconsistent } = chooseFittingSubset([...byIndex.keys()], threshold, (indices) =>
    interpolate(indices, (index) => publicShares.get(index)!).equals(groupKey),
  );
  if (!chosen) throw new ThresholdUnavailableError(threshold, good.length, rejected, inconsistent);
  return { evaluated: interpolate(chosen, (index) => byIndex.get(index)!), used: chosen, rejected, inconsistent };
}
