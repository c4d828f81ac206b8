import { ristretto255 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, randomBytes } from '@noble/curves/utils.js';
import { ThresholdKeyMismatchError } from './errors.ts';
import { lagrangeCoefficients } from './lagrange-coefficients.ts';
import { oprfPublicKey } from './oprf-suite.ts';

const Fn = ristretto255.Point.Fn;
type Point = InstanceType<typeof ristretto255.Point>;

/** Share indices are one byte (x = 1..255), as in every Shamir tool operators know; 0 is the secret. */
export const MAX_OPRF_SHARES = 255;
/** Above this many candidate bases, `checkPublicShares` names misfits against the first one only. */
const MAX_BASES_TRIED = 1000;

/** One node's Shamir share of the OPRF private key: index 1..n, share a 32-byte canonical little-endian ristretto255 scalar. */
export interface OprfKeyShare {
  index: number;
  share: Uint8Array;
}

/** A node's public share Kᵢ = kᵢ·G (32-byte ristretto255 encoding). */
export interface OprfPublicShare {
  index: number;
  publicKey: Uint8Array;
}

/**
 * Splits the OPRF private key k into `count` Shamir shares over the ristretto255 scalar field, any
 * `threshold` of which recover it: kᵢ = f(i) for a fresh random polynomial f of degree t−1 with
 * f(0) = k. Fewer than t shares say nothing about k. The key itself is unchanged, so every output
 * (commitment, ID tag, DID) made with it stays the same.
 * @throws RangeError for a malformed key or when not 2 ≤ threshold ≤ count ≤ 255.
 */
export function splitOprfKey(privateKey: Uint8Array, threshold: number, count: number): OprfKeyShare[] {
  const secret = parseScalar(privateKey, 'The OPRF private key');
  if (secret === 0n) throw new RangeError('The OPRF private key is zero');
  assertShape(threshold, count);
  for (;;) {
    const coefficients = [secret, ...Array.from({ length: threshold - 1 }, randomNonZeroScalar)];
    const shares = Array.from({ length: count }, (_, i) => ({ index: i + 1, value: evaluatePolynomial(coefficients, i + 1) }));
    // A zero share is not a usable VOPRF key; the chance is 2⁻²⁵² per share, so draw again.
    if (shares.every(({ value }) => value !== 0n)) return shares.map(({ index, value }) => ({ index, share: Fn.toBytes(value) }));
  }
}

/**
 * The private key the given shares interpolate to (Lagrange at 0). Any t shares of one split give
 * the key; fewer, or shares of different splits, give an unrelated scalar, which is the point.
 * @throws RangeError for no shares, repeated or out-of-range indices, malformed shares, or a zero result.
 */
export function recoverOprfKey(shares: OprfKeyShare[]): Uint8Array {
  if (shares.length === 0) throw new RangeError('No shares to recover the OPRF key from');
  const indices = shares.map(({ index }) => assertIndex(index));
  const coefficients = lagrangeCoefficients(indices);
  const secret = shares.reduce(
    (sum, { share, index }, i) => Fn.add(sum, Fn.mul(coefficients[i]!, parseScalar(share, `Share ${index}`))),
    Fn.ZERO,
  );
  if (secret === 0n) throw new RangeError('The shares interpolate to zero, not to an OPRF key');
  return Fn.toBytes(secret);
}

/**
 * Proactive refresh: the same key, shared again on a fresh random polynomial. New shares do not
 * combine with old ones, so shares stolen before a refresh become useless once the old ones are
 * deleted; outputs do not change. The key exists only in memory while this runs.
 * @throws RangeError as `recoverOprfKey` and `splitOprfKey` do.
 */
export function refreshOprfShares(shares: OprfKeyShare[], threshold: number, count: number): OprfKeyShare[] {
  const privateKey = recoverOprfKey(shares);
  try {
    return splitOprfKey(privateKey, threshold, count);
  } finally {
    privateKey.fill(0);
  }
}

/** The public share Kᵢ = kᵢ·G a node publishes and clients check its DLEQ proofs against. */
export function oprfPublicShare(share: OprfKeyShare): OprfPublicShare {
  return { index: assertIndex(share.index), publicKey: oprfPublicKey(share.share) };
}

/**
 * Throws ThresholdKeyMismatchError (in errors.ts, with the indices that do not fit) unless every
 * published Kᵢ lies on one degree t−1 polynomial whose value at 0 is groupPublicKey
 * (`partitionPublicShares` names them).
 */
export function checkPublicShares(groupPublicKey: Uint8Array, shares: OprfPublicShare[], threshold: number): void {
  const { misfits } = partitionPublicShares(groupPublicKey, shares, threshold);
  if (misfits.length > 0) throw new ThresholdKeyMismatchError(misfits);
  if (shares.length < threshold) throw new ThresholdKeyMismatchError([]);
}

/**
 * Splits the published Kᵢ into those that lie on one degree t−1 polynomial through the group key
 * (`fit`: any t of them interpolate to it, so their answers combine to k·B) and the others
 * (`misfits`: a share of another split, an old share from before a refresh, garbage, a repeated or
 * out-of-range index). Any t−1 shares with the group key fix such a polynomial; the others must be
 * its values at their indices (interpolation in the exponent). The basis most shares agree with
 * decides. When no basis has t shares on it, nobody can tell which are wrong, and every share is a
 * misfit: with t = 2, an old K₃ beside a new K₁ each fit the group key alone, but not together.
 */
export function partitionPublicShares(
  groupPublicKey: Uint8Array,
  shares: readonly OprfPublicShare[],
  threshold: number,
): { fit: number[]; misfits: number[] } {
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('The threshold is a positive integer');
  const group = decodePoint(groupPublicKey);
  const bad = new Set<number>();
  const points = new Map<number, Point>();
  for (const { index, publicKey } of shares) {
    const point = decodePoint(publicKey);
    if (!group || !isIndex(index) || points.has(index) || bad.has(index) || !point) bad.add(index);
    else points.set(index, point);
  }
  for (const index of bad) points.delete(index);
  const valid = [...points.keys()].sort((a, b) => a - b);
  const sorted = (indices: Iterable<number>) => [...indices].sort((a, b) => a - b);
  if (valid.length < threshold) return { fit: [], misfits: sorted([...bad, ...valid]) };
  let best: number[] | undefined;
  let tried = 0;
  for (const basis of subsets(valid, threshold - 1)) {
    const misfits = valid.filter((index) => !basis.includes(index) && !fitsPolynomial(group!, basis, points, index));
    if (!best || misfits.length < best.length) best = misfits;
    if (misfits.length === 0 || ++tried >= MAX_BASES_TRIED) break;
  }
  // A basis no other share agrees with shows only that the set is inconsistent, not who is wrong.
  const misfits = best!.length > valid.length - threshold ? valid : best!;
  return { fit: valid.filter((index) => !misfits.includes(index)), misfits: sorted([...bad, ...misfits]) };
}

function fitsPolynomial(group: Point, basis: number[], points: Map<number, Point>, at: number): boolean {
  const xs = [0, ...basis];
  const ys = [group, ...basis.map((index) => points.get(index)!)];
  const expected = lagrangeCoefficients(xs, at).reduce((sum, lambda, i) => sum.add(ys[i]!.multiply(lambda)), ristretto255.Point.ZERO);
  return expected.equals(points.get(at)!);
}

function* subsets(items: number[], size: number, start = 0): Generator<number[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - size; i++) for (const rest of subsets(items, size - 1, i + 1)) yield [items[i]!, ...rest];
}

function evaluatePolynomial(coefficients: bigint[], x: number): bigint {
  return coefficients.reduceRight((acc, coefficient) => Fn.add(Fn.mul(acc, BigInt(x)), coefficient), Fn.ZERO);
}

function randomNonZeroScalar(): bigint {
  for (;;) {
    // 64 uniform bytes reduced mod ℓ: bias below 2⁻²⁵⁰.
    const scalar = Fn.create(bytesToNumberLE(randomBytes(64)));
    if (scalar !== 0n) return scalar;
  }
}

function parseScalar(bytes: Uint8Array, what: string): bigint {
  if (!(bytes instanceof Uint8Array) || bytes.length !== Fn.BYTES) throw new RangeError(`${what} is not 32 bytes`);
  const scalar = bytesToNumberLE(bytes);
  if (scalar >= Fn.ORDER) throw new RangeError(`${what} is not a canonical ristretto255 scalar`);
  return scalar;
}

function decodePoint(bytes: Uint8Array): Point | undefined {
  try {
    const point = ristretto255.Point.fromBytes(bytes);
    return point.is0() ? undefined : point;
  } catch {
    return undefined;
  }
}

const isIndex = (index: number) => Number.isInteger(index) && index >= 1 && index <= MAX_OPRF_SHARES;

function assertIndex(index: number): number {
  if (!isIndex(index)) throw new RangeError(`A share index is an integer from 1 to ${MAX_OPRF_SHARES}`);
  return index;
}

function assertShape(threshold: number, count: number): void {
  if (!Number.isInteger(threshold) || threshold < 2) throw new RangeError('The threshold must be an integer of at least 2');
  if (!Number.isInteger(count) || count > MAX_OPRF_SHARES)
    throw new RangeError(`The number of shares must be an integer of at most ${MAX_OPRF_SHARES}`);
  if (threshold > count) throw new RangeError('The threshold cannot exceed the number of shares');
}
