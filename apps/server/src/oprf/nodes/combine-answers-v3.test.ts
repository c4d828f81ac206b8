import { describe, expect, it } from 'vitest';
import {
  G,
  blindQuery,
  encodeEvaluation,
  evaluateBlinded,
  publicShare,
  randomScalar,
  splitKey,
  type KeyShare,
  type Point,
} from '@zeroid/protocol/v3';
import { Problem } from '../../problem.ts';
import { combineV3Answers } from './combine-answers-v3.ts';

/**
 * A threshold v3 registration's Z (decision 056): combined from node answers only when each comes
 * from a node of the set with a DLEQ proof against its published Kᵢ, and t of them fit the group key.
 * Real keys, shares and proofs; no network (the answers are what a client forwards).
 */
const key = randomScalar();
const shares = splitKey(key, 2, 3);
const set = {
  groupKey: G.multiply(key),
  shares: new Map(shares.map((share) => [share.index, publicShare(share).publicKey])),
  threshold: 2,
};
const blinded = blindQuery('bio', 'combine v3 answers').blinded;
const answer = (share: KeyShare, index = share.index, point: Point = blinded) => {
  const { evaluated, proof } = evaluateBlinded(share.share, point);
  return { index, evaluation: Buffer.from(encodeEvaluation(evaluated, proof)).toString('base64url') };
};
const refusal = (answers: Array<{ index: number; evaluation: string }>, v3 = set) => {
  try {
    combineV3Answers(v3, blinded, answers);
    return 'combined';
  } catch (error) {
    return error instanceof Problem ? `${error.statusCode} ${error.code}` : String(error);
  }
};

describe('combineV3Answers', () => {
  it('gives Z = k·B from any t answers, or from all n', () => {
    const expected = blinded.multiply(key);
    for (const pair of [
      [0, 1],
      [1, 2],
      [0, 2],
      [0, 1, 2],
    ]) {
      expect(
        combineV3Answers(
          set,
          blinded,
          pair.map((i) => answer(shares[i]!)),
        ).equals(expected),
      ).toBe(true);
    }
  });

  it('refuses an answer from a node outside the set, even with a valid proof under its own key', () => {
    const outsider = { index: 4, share: randomScalar() };
    expect(refusal([answer(shares[0]!), answer(shares[1]!), answer(outsider)])).toBe('400 EVALUATION_REFUSED');
  });

  it('refuses an answer whose proof fails: another node’s answer, another point’s, or bytes that decode to nothing', () => {
    expect(refusal([answer(shares[0]!), answer(shares[2]!, 2)])).toBe('400 EVALUATION_REFUSED');
    expect(refusal([answer(shares[0]!), answer(shares[1]!, 2, G.multiply(7n))])).toBe('400 EVALUATION_REFUSED');
    expect(refusal([answer(shares[0]!), { index: 2, evaluation: 'A'.repeat(128) }])).toBe('400 EVALUATION_REFUSED');
    // A good third answer does not make up for a bad one.
    expect(refusal([answer(shares[0]!), answer(shares[1]!), answer(shares[0]!, 3)])).toBe('400 EVALUATION_REFUSED');
  });

  it('refuses fewer than t good answers, and one node answering twice', () => {
    expect(refusal([answer(shares[0]!), answer(shares[1]!)], { ...set, threshold: 3 })).toBe('400 EVALUATION_REFUSED');
    expect(refusal([answer(shares[0]!), answer(shares[0]!)])).toBe('400 EVALUATION_REFUSED');
  });

  it('refuses shares that verify but do not interpolate to the group key (a node on another split)', () => {
    const other = splitKey(randomScalar(), 2, 3);
    const mixed = { ...set, shares: new Map([...set.shares, [2, publicShare(other[1]!).publicKey]]) };
    // Node 2's proof holds against its published key, yet with node 1 it interpolates to another key.
    expect(refusal([answer(shares[0]!), answer(other[1]!)], mixed)).toBe('400 EVALUATION_REFUSED');
  });
});
