import { bytesToHex } from '@noble/hashes/utils.js';
import { OprfEvaluator, oprfPublicShare, refreshOprfShares, splitOprfKey, ThresholdUnavailableError } from '@zeroid/protocol';
import sodium from 'libsodium-wrappers-sumo';
import { beforeAll, describe, expect, it } from 'vitest';
import { libsodiumReady } from '../libsodium.ts';
import { sodiumBlindEvaluateBatch } from '../sodium-voprf.ts';
import { sodiumBlindEvaluate } from '../../../test/sodium-single-element.ts';
import { sodiumThresholdRound } from './sodium-threshold-round.ts';

/** A registration's two inputs, as the raw path evaluates them in one batch (decision 027). */
const REGISTRATION_TASKS = [
  { domain: 'bio', normalised: 'iris text' },
  { domain: 'id', normalised: 'id 42' },
] as const;

/** What the single key gives for each task: what every combination of shares must give. */
const singleKeyOutputs = (key: OprfEvaluator, tasks: typeof REGISTRATION_TASKS) =>
  Promise.all(tasks.map(async ({ domain, normalised }) => bytesToHex(await key.evaluate(domain, normalised))));

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
      const round = sodiumThresholdRound({ groupPublicKey: key.publicKey, threshold: 2, publicShares }, [
        { domain: 'bio', normalised: 'iris text' },
      ]);
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
      expect(round.finalize(answers).outputs.map(bytesToHex)).toEqual([expected]);
      if (!pair.includes(3)) {
        const { outputs, rejected } = round.finalize([lying, ...answers]);
        expect(outputs.map(bytesToHex)).toEqual([expected]);
        expect(rejected).toEqual([3]);
        expect(() => round.finalize([lying, answers[0]!, { ...answers[0]! }])).toThrow(ThresholdUnavailableError);
      }
    }
  });

  it("evaluates a registration's two inputs in one batch per node (decision 027): the single-key outputs, a lying node left out", async () => {
    const privateKey = sodium.crypto_core_ristretto255_scalar_random();
    const key = new OprfEvaluator(privateKey);
    const shares = splitOprfKey(privateKey, 2, 3);
    const publicShares = shares.map(oprfPublicShare);
    const tasks = REGISTRATION_TASKS;
    const expected = await singleKeyOutputs(key, tasks);
    const round = sodiumThresholdRound({ groupPublicKey: key.publicKey, threshold: 2, publicShares }, tasks);
    expect(round.request.length).toBe(2 + 2 * 32);
    expect([...round.request.subarray(0, 2)]).toEqual([0, 2]);
    const elements = [round.request.slice(2, 34), round.request.slice(34)];
    const answer = (index: number, k = shares[index - 1]!.share) => ({
      index,
      evaluation: sodiumBlindEvaluateBatch(k, publicShares[index - 1]!.publicKey, elements),
    });
    // The bio and ID outputs, in order, from every pair.
    for (const pair of [
      [1, 2],
      [2, 3],
      [3, 1],
    ])
      expect(round.finalize(pair.map((index) => answer(index))).outputs.map(bytesToHex)).toEqual(expected);

    // A node that evaluates one of the two elements with another key, proof made over the batch: refused.
    const halfLie = answer(3);
    const wrongSecond = sodium.crypto_scalarmult_ristretto255(sodium.crypto_core_ristretto255_scalar_random(), elements[1]!);
    halfLie.evaluation.set(wrongSecond, 2 + 32);
    const { outputs, rejected } = round.finalize([halfLie, answer(1), answer(2)]);
    expect(outputs.map(bytesToHex)).toEqual(expected);
    expect(rejected).toEqual([3]);
    // A single-element answer to a batch, or the two elements swapped, is not an answer either.
    const single = { index: 3, evaluation: sodiumBlindEvaluate(shares[2]!.share, publicShares[2]!.publicKey, elements[0]!) };
    const swapped = {
      index: 3,
      evaluation: sodiumBlindEvaluateBatch(shares[2]!.share, publicShares[2]!.publicKey, [elements[1]!, elements[0]!]),
    };
    for (const wrong of [single, swapped]) expect(() => round.finalize([wrong, answer(1)])).toThrow(ThresholdUnavailableError);
  });

  it('never combines a refreshed node with one on its old share, though each proof verifies (decision 033)', async () => {
    const privateKey = sodium.crypto_core_ristretto255_scalar_random();
    const key = new OprfEvaluator(privateKey);
    const old = splitOprfKey(privateKey, 2, 3);
    const mixed = [...refreshOprfShares(old.slice(1), 2, 3).slice(0, 2), old[2]!];
    const publicShares = mixed.map(oprfPublicShare);
    const tasks = REGISTRATION_TASKS;
    const expected = await singleKeyOutputs(key, tasks);
    const round = sodiumThresholdRound({ groupPublicKey: key.publicKey, threshold: 2, publicShares }, tasks);
    const elements = [round.request.slice(2, 34), round.request.slice(34)];
    const answer = (index: number) => ({
      index,
      evaluation: sodiumBlindEvaluateBatch(mixed[index - 1]!.share, publicShares[index - 1]!.publicKey, elements),
    });
    expect(() => round.finalize([answer(1), answer(3)])).toThrow(
      expect.objectContaining({ name: 'ThresholdUnavailableError', verified: 2, inconsistent: [1, 3] }),
    );
    const { outputs, rejected, inconsistent } = round.finalize([answer(3), answer(1), answer(2)]);
    expect(outputs.map(bytesToHex)).toEqual(expected);
    expect([rejected, inconsistent]).toEqual([[], [3]]);
  });
});
