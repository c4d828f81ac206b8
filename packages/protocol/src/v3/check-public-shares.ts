import { ThresholdKeyMismatchError } from '../errors.ts';
import { Point } from './baby-jubjub-group.ts';
import { lagrangeCoefficients } from './threshold-key.ts';

/** Above this many candidate bases, the shares that do not fit are named against the best one found. */
const MAX_BASES_TRIED = 1000;

/**
 * Throws ThresholdKeyMismatchError, naming the nodes that do not fit, unless every published Kᵢ lies
 * on one polynomial of degree t−1 whose value at 0 is the group key K (interpolation in the exponent:
 * K and any t−1 shares fix the polynomial, and each other Kᵢ must be its value at i). The points must
 * be decoded already (undefined for one that did not decode: that node is named). The same rule as
 * v2's `checkPublicShares`, on Baby Jubjub.
 */
export function checkPublicShares(
  groupKey: Point,
  shares: ReadonlyArray<{ index: number; publicKey: Point | undefined }>,
  threshold: number,
): void {
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('The threshold is a positive integer');
  const bad = new Set<number>();
  const points = new Map<number, Point>();
  for (const { index, publicKey } of shares) {
    if (!Number.isInteger(index) || index < 1 || index > 255 || points.has(index) || !publicKey) bad.add(index);
    else points.set(index, publicKey);
  }
  const valid = [...points.keys()].sort((a, b) => a - b);
  if (valid.length < threshold) throw new ThresholdKeyMismatchError([...bad].sort((a, b) => a - b));
  const fits = (basis: number[], at: number) =>
    lagrangeCoefficients([0, ...basis], at)
      .reduce((sum, lambda, i) => sum.add((i === 0 ? groupKey : points.get(basis[i - 1]!)!).multiplyUnsafe(lambda)), Point.ZERO)
      .equals(points.get(at)!);
  let best: number[] | undefined;
  let tried = 0;
  for (const basis of subsets(valid, threshold - 1)) {
    const misfits = valid.filter((index) => !basis.includes(index) && !fits(basis, index));
    if (!best || misfits.length < best.length) best = misfits;
    if (misfits.length === 0 || ++tried >= MAX_BASES_TRIED) break;
  }
  // A basis that no other share agrees with shows only that the set is inconsistent, not who is wrong.
  const misfits = best!.length > valid.length - threshold ? valid : best!;
  const all = [...bad, ...misfits].sort((a, b) => a - b);
  if (all.length > 0) throw new ThresholdKeyMismatchError(all);
}

function* subsets(items: number[], size: number, start = 0): Generator<number[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - size; i++) for (const rest of subsets(items, size - 1, i + 1)) yield [items[i]!, ...rest];
}
