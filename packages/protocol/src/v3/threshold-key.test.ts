import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ThresholdUnavailableError } from '../errors.ts';
import { G, Fn, randomScalar } from './baby-jubjub-group.ts';
import { blindQuery } from './blind-query.ts';
import { combineEvaluations, type NodeAnswer } from './combine-evaluations.ts';
import { evaluateBlinded } from './evaluate-blinded.ts';
import { publicShare, recoverKey, splitKey } from './threshold-key.ts';
import { unblindEvaluation } from './unblind-evaluation.ts';

function* subsets<T>(items: readonly T[], size: number, start = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = start; i <= items.length - size; i++) for (const rest of subsets(items, size - 1, i + 1)) yield [items[i]!, ...rest];
}

describe('v3 threshold OPRF', () => {
  it('every t-subset of the answers gives the single key’s evaluation and output (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }).chain((t) => fc.tuple(fc.constant(t), fc.integer({ min: t, max: 4 }))),
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() === s && s.length > 0),
        fc.bigInt({ min: 1n, max: Fn.ORDER - 1n }),
        ([threshold, count], text, key) => {
          const groupKey = G.multiply(key);
          const round = blindQuery('bio', text);
          const single = unblindEvaluation(round, groupKey, evaluateBlinded(key, round.blinded).evaluated).output;
          const shares = splitKey(key, threshold, count);
          const publicShares = new Map(shares.map((s) => [s.index, publicShare(s).publicKey]));
          const answers: NodeAnswer[] = shares.map((s) => ({ index: s.index, ...evaluateBlinded(s.share, round.blinded) }));
          for (const chosen of subsets(answers, threshold)) {
            const { evaluated, rejected } = combineEvaluations(round.blinded, groupKey, publicShares, threshold, chosen);
            expect(rejected).toEqual([]);
            expect(evaluated.equals(round.blinded.multiply(key))).toBe(true);
            expect(unblindEvaluation(round, groupKey, evaluated).output).toBe(single);
            expect(recoverKey(chosen.map(({ index }) => shares[index - 1]!))).toBe(key);
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('leaves out a node whose answer is wrong, unknown or repeated, and names it', () => {
    const key = randomScalar();
    const shares = splitKey(key, 2, 4);
    const publicShares = new Map(shares.slice(0, 3).map((s) => [s.index, publicShare(s).publicKey]));
    const groupKey = G.multiply(key);
    const round = blindQuery('id', 'ID 1');
    const answer = (index: number, share: bigint = shares[index - 1]!.share): NodeAnswer => ({
      index,
      ...evaluateBlinded(share, round.blinded),
    });
    const lying = { ...answer(1), evaluated: evaluateBlinded(shares[0]!.share, round.blinded).evaluated.add(G) };
    const otherKey = answer(2, randomScalar());
    const outsider = answer(4);
    const repeated = answer(3);
    const { evaluated, used, rejected } = combineEvaluations(round.blinded, groupKey, publicShares, 2, [
      lying,
      outsider,
      answer(3),
      repeated,
      answer(2),
    ]);
    expect(rejected).toEqual([1, 4, 3]);
    expect(used).toEqual([3, 2]);
    expect(evaluated.equals(round.blinded.multiply(key))).toBe(true);
    expect(() => combineEvaluations(round.blinded, groupKey, publicShares, 2, [lying, answer(3)])).toThrow(ThresholdUnavailableError);
    // A node answering with a key other than its published share, even a valid proof for that key.
    expect(() => combineEvaluations(round.blinded, groupKey, publicShares, 2, [otherKey, answer(3)])).toThrow(ThresholdUnavailableError);
  });

  it('never combines a refreshed node with a node on its pre-refresh share (decision 033): left out and named', () => {
    const key = randomScalar();
    const groupKey = G.multiply(key);
    const before = splitKey(key, 2, 3);
    const after = splitKey(key, 2, 3);
    const round = blindQuery('bio', 'refresh');
    // Node 3 came back on its old share and publishes its old Kᵢ; nodes 1 and 2 were refreshed.
    const published = new Map([
      [1, publicShare(after[0]!).publicKey],
      [2, publicShare(after[1]!).publicKey],
      [3, publicShare(before[2]!).publicKey],
    ]);
    const answer = (share: { index: number; share: bigint }): NodeAnswer => ({
      index: share.index,
      ...evaluateBlinded(share.share, round.blinded),
    });
    // Node 2 down: each remaining proof verifies against its own Kᵢ, but 1 and 3 do not fit K together.
    expect(() => combineEvaluations(round.blinded, groupKey, published, 2, [answer(after[0]!), answer(before[2]!)])).toThrow(
      ThresholdUnavailableError,
    );
    const { evaluated, used, inconsistent } = combineEvaluations(round.blinded, groupKey, published, 2, [
      answer(after[0]!),
      answer(before[2]!),
      answer(after[1]!),
    ]);
    expect(used).toEqual([1, 2]);
    expect(inconsistent).toEqual([3]);
    expect(evaluated.equals(round.blinded.multiply(key))).toBe(true);
  });

  it('fewer than t shares, or shares of two splits, recover an unrelated key', () => {
    const key = randomScalar();
    const [a, b, c] = splitKey(key, 3, 3);
    expect(recoverKey([a!, b!])).not.toBe(key);
    const other = splitKey(key, 3, 3);
    expect(recoverKey([a!, b!, other[2]!])).not.toBe(key);
    expect(recoverKey([c!, a!, b!])).toBe(key);
    expect(() => splitKey(key, 1, 3)).toThrow(RangeError);
    expect(() => splitKey(0n, 2, 3)).toThrow(RangeError);
  });
});
