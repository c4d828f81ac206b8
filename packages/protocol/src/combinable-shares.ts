import { ristretto255 } from '@noble/curves/ed25519.js';
import { bytesToHex as hex } from '@noble/hashes/utils.js';
import { lagrangeCoefficients } from './lagrange-coefficients.ts';
import type { OprfPublicShare } from './threshold-oprf.ts';

type Point = InstanceType<typeof ristretto255.Point>;

/** Above this many t-subsets of the answers in hand, a round gives up rather than search on. */
const MAX_SUBSETS_TRIED = 64;
/** Verdicts already reached, keyed by the group key and the shares: a client meets few node sets. */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 256;

/**
 * Whether answers from exactly these nodes may be combined: their Kᵢ, interpolated at 0 with the
 * Lagrange coefficients of their indices, give the group key, Σ λᵢ·Kᵢ = K. Each answer's DLEQ proof
 * shows Zᵢ = kᵢ·B for the kᵢ of its own Kᵢ, so Σ λᵢ·Zᵢ = (Σ λᵢ·kᵢ)·B, and that is k·B exactly when
 * Σ λᵢ·kᵢ = k, i.e. when this equation holds (G has prime order). Proofs alone do not give it: a node
 * on a share from before a refresh proves its answers against its own (old) Kᵢ, and combined with a
 * refreshed node's answer gives a wrong output with every proof valid (decision 033). t shares and the
 * group key are t + 1 points of a degree t−1 polynomial, so this is a real check, even for t = 2.
 */
function sharesInterpolateToGroupKey(groupPublicKey: Uint8Array, shares: readonly OprfPublicShare[]): boolean {
  const key = `${hex(groupPublicKey)}|${shares.map(({ index, publicKey }) => `${index}:${hex(publicKey)}`).join(',')}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  let verdict: boolean;
  try {
    const lambdas = lagrangeCoefficients(shares.map(({ index }) => index));
    const sum = shares.reduce<Point>(
      (acc, { publicKey }, i) => acc.add(ristretto255.Point.fromBytes(publicKey).multiply(lambdas[i]!)),
      ristretto255.Point.ZERO,
    );
    verdict = shares.length > 0 && sum.equals(ristretto255.Point.fromBytes(groupPublicKey));
  } catch {
    verdict = false; // an encoding that does not decode, or a repeated index
  }
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

/**
 * Which verified answers a threshold round may combine (decision 033): the first t of `verified`
 * (indices in the order their answers arrived, each already checked against its own Kᵢ) whose Kᵢ
 * interpolate to the group key, trying further t-subsets when the first does not; so a node on an
 * old share, on a share of another split, or on a key it switched to while running is left out
 * instead of spoiling the output. `inconsistent` names the verified nodes that do not fit with the
 * chosen ones (with none chosen, every verified node: which of them is wrong cannot be told).
 * `chosen` is undefined when no t of them fit: no output, never a guessed one.
 */
export function chooseCombinableAnswers(
  groupPublicKey: Uint8Array,
  publicKeys: ReadonlyMap<number, Uint8Array>,
  verified: readonly number[],
  threshold: number,
): { chosen: number[] | undefined; inconsistent: number[] } {
  const shares = (indices: readonly number[]) => indices.map((index) => ({ index, publicKey: publicKeys.get(index)! }));
  return chooseFittingSubset(verified, threshold, (subset) => sharesInterpolateToGroupKey(groupPublicKey, shares(subset)));
}

/**
 * The rule of `chooseCombinableAnswers` for any group: `fits` says whether the Kᵢ of a set of node
 * indices interpolate to the group key. The first t-subset of `verified` (in arrival order) that fits
 * is chosen; `inconsistent` names the verified nodes that do not fit with it (with none chosen, every
 * verified node, since which is wrong cannot be told).
 */
export function chooseFittingSubset(
  verified: readonly number[],
  threshold: number,
  fits: (indices: readonly number[]) => boolean,
): { chosen: number[] | undefined; inconsistent: number[] } {
  let tried = 0;
  for (const subset of subsetsInOrder(verified, threshold)) {
    if (fits(subset)) {
      const basis = subset.slice(0, threshold - 1);
      const inconsistent = verified.filter((index) => !subset.includes(index) && !fits([...basis, index]));
      return { chosen: subset, inconsistent };
    }
    if (++tried >= MAX_SUBSETS_TRIED) break;
  }
  return { chosen: undefined, inconsistent: verified.length >= threshold ? [...verified] : [] };
}

/** The `size`-element subsets of `items`, earliest items first. */
function* subsetsInOrder(items: readonly number[], size: number, start = 0): Generator<number[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - size; i++) for (const rest of subsetsInOrder(items, size - 1, i + 1)) yield [items[i]!, ...rest];
}
