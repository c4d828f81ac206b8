import { bytesToHex } from '@noble/hashes/utils.js';
import { OprfEvaluator, oprfPublicShare, splitOprfKey, ThresholdUnavailableError } from '@zeroid/protocol';
import sodium from 'libsodium-wrappers-sumo';
import { beforeAll, describe, expect, it } from 'vitest';
import { libsodiumReady } from '../libsodium.ts';
import { sodiumBlindEvaluate } from '../sodium-voprf.ts';
import { sodiumThresholdRound } from './sodium-threshold-round.ts';

describe('the threshold round on libsodium', () => {
  beforeAll(() => libsodiumReady);

  it('gives the single-key output from any 2 of 3 nodes, leaves a lying node out, and refuses with fewer than t', async () => {
    const privateKey = sodium.crypto_core_ristretto255_scalar_random();
    const key = new OprfEvaluator(privateKey);
    const shares = splitOprfKey(privateKey, 2, 3);
    const publicShares = shares.map(oprfPublicShare);
    const expected = bytesToHex(await key.evaluate('bio', 'iris text'));
    const liar = sodium.crypto_core_ristretto255_scalar_random();
    for (const pair of [
      [1, 2],
      [2, 3],
      [3, 1],
    ]) {
      const round = sodiumThresholdRound(publicShares, 2, 'bio', 'iris text');
      // One node answers with voprf-ts (as before decision 026), the other with libsodium: both verify.
      const [first, second] = pair.map((index) => shares[index - 1]!);
      const answers = [
        { index: first!.index, evaluation: await new OprfEvaluator(first!.share).blindEvaluate(round.request) },
        {
          index: second!.index,
          evaluation: sodiumBlindEvaluate(second!.share, publicShares[second!.index - 1]!.publicKey, round.request.subarray(2)),
        },
      ];
      const lying = { index: 3, evaluation: sodiumBlindEvaluate(liar, publicShares[2]!.publicKey, round.request.subarray(2)) };
      expect(bytesToHex(round.finalize(answers).output)).toBe(expected);
      if (!pair.includes(3)) {
        const { output, rejected } = round.finalize([lying, ...answers]);
        expect(bytesToHex(output)).toBe(expected);
        expect(rejected).toEqual([3]);
        expect(() => round.finalize([lying, answers[0]!, { ...answers[0]! }])).toThrow(ThresholdUnavailableError);
      }
    }
  });
});
