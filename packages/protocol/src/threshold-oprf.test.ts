import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesToHex } from '@noble/hashes/utils.js';
import { generateOprfKeyPair } from './oprf-suite.ts';
import { OprfEvaluator, assertBlindedRequest } from './oprf-evaluator.ts';
import { blindOprfInput } from './blind-oprf-input.ts';
import { blindThresholdOprfInput } from './blind-threshold-oprf-input.ts';
import { ThresholdKeyMismatchError, ThresholdUnavailableError } from './errors.ts';
import {
  checkPublicShares,
  oprfPublicShare,
  partitionPublicShares,
  recoverOprfKey,
  refreshOprfShares,
  splitOprfKey,
  type OprfKeyShare,
} from './threshold-oprf.ts';

const hex = bytesToHex;

/** Every `size`-element subset of `items`, in order. */
function subsets<T>(items: T[], size: number): T[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, i) => subsets(items.slice(i + 1), size - 1).map((rest) => [item, ...rest]));
}

/** The nodes of one split, each answering a blinded request with its share and a DLEQ proof against Kᵢ. */
const nodesOf = (shares: OprfKeyShare[]) => shares.map((share) => ({ index: share.index, evaluator: new OprfEvaluator(share.share) }));

describe('threshold OPRF (Shamir over the ristretto255 scalar field, Lagrange in the exponent)', () => {
  it.each([
    [2, 3],
    [3, 5],
  ])('%i-of-%i: every t-subset of node answers finalizes to the single-key VOPRF output', async (threshold, count) => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('bio' as const, 'id' as const), fc.string({ minLength: 1, maxLength: 40 }), async (domain, text) => {
        const { privateKey, publicKey } = await generateOprfKeyPair();
        const single = new OprfEvaluator(privateKey);
        const round = await blindOprfInput(publicKey, domain, text);
        const expected = hex(await round.finalize(await single.blindEvaluate(round.request)));
        expect(expected).toBe(hex(await single.evaluate(domain, text)));

        const shares = splitOprfKey(privateKey, threshold, count);
        const publicShares = shares.map(oprfPublicShare);
        checkPublicShares(publicKey, publicShares, threshold);
        const thresholdRound = await blindThresholdOprfInput({ groupPublicKey: publicKey, threshold, publicShares }, domain, text);
        assertBlindedRequest(thresholdRound.request);
        const answers = await Promise.all(
          nodesOf(shares).map(async ({ index, evaluator }) => ({
            index,
            evaluation: await evaluator.blindEvaluate(thresholdRound.request),
          })),
        );
        for (const subset of subsets(answers, threshold)) {
          const { output, rejected } = await thresholdRound.finalize(subset);
          expect(rejected).toEqual([]);
          expect(hex(output)).toBe(expected);
        }
      }),
      { numRuns: 4 },
    );
  });

  it('recovers the key from every t-subset of shares, and not from t−1 or from a mix of two splits', async () => {
    const { privateKey } = await generateOprfKeyPair();
    const shares = splitOprfKey(privateKey, 3, 5);
    expect(new Set(shares.map((share) => hex(share.share))).size).toBe(5);
    for (const subset of subsets(shares, 3)) expect(hex(recoverOprfKey(subset))).toBe(hex(privateKey));
    for (const subset of subsets(shares, 2)) expect(hex(recoverOprfKey(subset))).not.toBe(hex(privateKey));
    const other = splitOprfKey(privateKey, 3, 5);
    expect(hex(recoverOprfKey([shares[0]!, shares[1]!, other[2]!]))).not.toBe(hex(privateKey));
  });

  it('refreshes: same key and outputs, new shares that do not combine with old ones', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const old = splitOprfKey(privateKey, 2, 3);
    const fresh = refreshOprfShares([old[2]!, old[0]!], 2, 4);
    expect(fresh.map((share) => share.index)).toEqual([1, 2, 3, 4]);
    for (const share of fresh) expect(hex(share.share)).not.toBe(hex(old[share.index - 1]?.share ?? new Uint8Array()));
    for (const subset of subsets(fresh, 2)) expect(hex(recoverOprfKey(subset))).toBe(hex(privateKey));
    expect(hex(recoverOprfKey([old[0]!, fresh[1]!]))).not.toBe(hex(privateKey));
    checkPublicShares(publicKey, fresh.map(oprfPublicShare), 2);
    expect(() => checkPublicShares(publicKey, [...fresh.slice(0, 2), old[2]!].map(oprfPublicShare), 2)).toThrow(ThresholdKeyMismatchError);
  });

  it('names the node whose published key is not its share of the group key', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const publicShares = splitOprfKey(privateKey, 3, 5).map(oprfPublicShare);
    checkPublicShares(publicKey, publicShares, 3);
    const liar = { index: 4, publicKey: (await generateOprfKeyPair()).publicKey };
    const withLiar = publicShares.map((share) => (share.index === 4 ? liar : share));
    expect(() => checkPublicShares(publicKey, withLiar, 3)).toThrow(/node\(s\) 4 do not interpolate/);
    const garbage = publicShares.map((share) => (share.index === 2 ? { index: 2, publicKey: new Uint8Array(32).fill(0xff) } : share));
    expect(() => checkPublicShares(publicKey, garbage, 3)).toThrow(expect.objectContaining({ indices: [2] }));
    const otherGroup = (await generateOprfKeyPair()).publicKey;
    expect(() => checkPublicShares(otherGroup, publicShares, 3)).toThrow(ThresholdKeyMismatchError);
    expect(() => checkPublicShares(publicKey, publicShares.slice(0, 2), 3)).toThrow(ThresholdKeyMismatchError);
  });

  it('leaves out and names a node that answers with another key and a valid-looking proof', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const shares = splitOprfKey(privateKey, 2, 3);
    const expected = hex(await new OprfEvaluator(privateKey).evaluate('bio', 'a biometric'));
    const round = await blindThresholdOprfInput(
      { groupPublicKey: publicKey, threshold: 2, publicShares: shares.map(oprfPublicShare) },
      'bio',
      'a biometric',
    );
    const [one, , three] = nodesOf(shares);
    // Node 2 evaluates with a key of its own: a well-formed element and a proof that verifies, but
    // against its own key, not against the K₂ it published.
    const liar = new OprfEvaluator((await generateOprfKeyPair()).privateKey);
    const lie = await liar.blindEvaluate(round.request);
    const honest1 = await one!.evaluator.blindEvaluate(round.request);
    const honest3 = await three!.evaluator.blindEvaluate(round.request);
    expect(lie).toHaveLength(honest1.length);

    const result = await round.finalize([
      { index: 2, evaluation: lie },
      { index: 1, evaluation: honest1 },
      { index: 3, evaluation: honest3 },
    ]);
    expect(result.rejected).toEqual([2]);
    expect(hex(result.output)).toBe(expected);

    // Node 1's honest answer replayed as node 3's does not verify against K₃ either.
    await expect(
      round.finalize([
        { index: 1, evaluation: honest1 },
        { index: 3, evaluation: honest1 },
      ]),
    ).rejects.toThrow(expect.objectContaining({ name: 'ThresholdUnavailableError', rejected: [3], verified: 1, needed: 2 }));
    await expect(
      round.finalize([
        { index: 2, evaluation: lie },
        { index: 3, evaluation: honest3 },
      ]),
    ).rejects.toBeInstanceOf(ThresholdUnavailableError);
    // Garbage, an unknown index and a repeated node count as failures, never as answers.
    await expect(
      round.finalize([
        { index: 1, evaluation: honest1 },
        { index: 1, evaluation: honest1 },
        { index: 9, evaluation: honest3 },
        { index: 3, evaluation: new Uint8Array([1, 2, 3]) },
      ]),
    ).rejects.toThrow(expect.objectContaining({ rejected: [1, 9, 3], verified: 1 }));
  });

  it('never combines answers whose keys do not interpolate to the group key: node 3 on its share from before a refresh (decision 033)', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const old = splitOprfKey(privateKey, 2, 3);
    const fresh = refreshOprfShares(old.slice(0, 2), 2, 3);
    const expected = hex(await new OprfEvaluator(privateKey).evaluate('bio', 'a biometric'));
    // What a client reads after the refresh with node 3 down, then node 3 back on its old share:
    // nodes 1 and 2 refreshed, node 3 old. Each proof verifies against the key its node publishes.
    const mixed = [fresh[0]!, fresh[1]!, old[2]!];
    const round = await blindThresholdOprfInput(
      { groupPublicKey: publicKey, threshold: 2, publicShares: mixed.map(oprfPublicShare) },
      'bio',
      'a biometric',
    );
    const answers = await Promise.all(
      nodesOf(mixed).map(async ({ index, evaluator }) => ({ index, evaluation: await evaluator.blindEvaluate(round.request) })),
    );
    const [one, two, three] = answers;
    // Node 2 down: 1 (new) and 3 (old) verify one by one, but may not be combined. No output.
    await expect(round.finalize([one!, three!])).rejects.toThrow(
      expect.objectContaining({ name: 'ThresholdUnavailableError', rejected: [], verified: 2, inconsistent: [1, 3] }),
    );
    // With node 2 back, 1 and 2 combine and node 3 is named, whatever the order the answers came in.
    for (const order of [
      [three!, one!, two!],
      [one!, three!, two!],
      [two!, three!, one!],
    ]) {
      const { output, rejected, inconsistent } = await round.finalize(order);
      expect(hex(output)).toBe(expected);
      expect(rejected).toEqual([]);
      expect(inconsistent).toEqual([3]);
    }
    // The node list says the same before any round: 3 does not fit; with only 1 and 3, nobody can tell.
    expect(partitionPublicShares(publicKey, mixed.map(oprfPublicShare), 2)).toEqual({ fit: [1, 2], misfits: [3] });
    expect(partitionPublicShares(publicKey, [fresh[0]!, old[2]!].map(oprfPublicShare), 2)).toEqual({ fit: [], misfits: [1, 3] });
  });

  it('refuses shapes no operator means: t < 2, t > n, n > 255, a malformed key', async () => {
    const { privateKey } = await generateOprfKeyPair();
    expect(() => splitOprfKey(privateKey, 1, 3)).toThrow(/at least 2/);
    expect(() => splitOprfKey(privateKey, 4, 3)).toThrow(/cannot exceed/);
    expect(() => splitOprfKey(privateKey, 2, 256)).toThrow(/at most 255/);
    expect(() => splitOprfKey(new Uint8Array(32).fill(0xff), 2, 3)).toThrow(/canonical/);
    expect(() => splitOprfKey(new Uint8Array(32), 2, 3)).toThrow(/zero/);
    expect(() => recoverOprfKey([{ index: 0, share: privateKey }])).toThrow(/index/);
    expect(splitOprfKey(privateKey, 255, 255)).toHaveLength(255);
  });
});
