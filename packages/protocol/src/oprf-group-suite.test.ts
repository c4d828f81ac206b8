import { describe, expect, it } from 'vitest';
import { OprfProofError, ProtocolInputError, ThresholdKeyMismatchError, ThresholdUnavailableError } from './errors.ts';
import type { OprfSuite } from './oprf-group-suite.ts';
import { ristretto255Suite } from './ristretto255-suite.ts';
import { babyJubjubSuite } from './v3/baby-jubjub-suite.ts';

// One contract for every suite: what the server, the nodes, the CLI and the browser rely on.
describe.each([
  ['ristretto255 (v2)', ristretto255Suite],
  ['Baby Jubjub (v3)', babyJubjubSuite],
] as [string, OprfSuite][])('OPRF suite %s', (_, suite) => {
  it('a blind round gives the key holder’s direct evaluation, and another key’s answer is refused', async () => {
    const { privateKey, publicKey } = await suite.generateKeyPair();
    expect(suite.publicKey(privateKey)).toEqual(publicKey);
    const round = await suite.blind(publicKey, 'bio', 'some biometric');
    expect(round.request.length).toBeGreaterThanOrEqual(suite.elementBytes);
    const output = await round.finalize(await suite.blindEvaluate(privateKey, round.request));
    expect(output).toEqual(await suite.evaluate(privateKey, 'bio', 'some biometric'));
    expect(output).not.toEqual(await suite.evaluate(privateKey, 'id', 'some biometric'));
    const other = await suite.generateKeyPair();
    await expect(round.finalize(await suite.blindEvaluate(other.privateKey, round.request))).rejects.toThrow(OprfProofError);
  });

  it('the evaluator refuses anything but one valid element', async () => {
    const { privateKey } = await suite.generateKeyPair();
    const round = await suite.blind(suite.publicKey(privateKey), 'id', 'an ID');
    for (const request of [new Uint8Array(round.request.length), round.request.subarray(1), new Uint8Array([...round.request, 0])]) {
      await expect(suite.blindEvaluate(privateKey, request)).rejects.toThrow(ProtocolInputError);
    }
  });

  it('t of n nodes give the single key’s output; refresh keeps it; a wrong share is named', async () => {
    const { privateKey, publicKey } = await suite.generateKeyPair();
    const expected = await suite.evaluate(privateKey, 'bio', 'threshold biometric');
    const shares = suite.splitKey(privateKey, 2, 3);
    const publicShares = shares.map((s) => suite.publicShare(s));
    suite.checkPublicShares(publicKey, publicShares, 2);
    const refreshed = suite.refreshShares(shares.slice(1), 2, 3);
    expect(suite.recoverKey(refreshed.slice(0, 2))).toEqual(privateKey);
    for (const set of [shares, refreshed]) {
      const round = await suite.blindThreshold(
        { groupPublicKey: publicKey, threshold: 2, publicShares: set.map((s) => suite.publicShare(s)) },
        'bio',
        'threshold biometric',
      );
      const answers = await Promise.all(
        set.map(async (s) => ({ index: s.index, evaluation: await suite.blindEvaluate(s.share, round.request) })),
      );
      expect(await round.finalize([answers[2]!, answers[0]!])).toEqual({ output: expected, rejected: [], inconsistent: [] });
    }
    const stranger = suite.publicShare({ index: 3, share: (await suite.generateKeyPair()).privateKey });
    expect(() => suite.checkPublicShares(publicKey, [...publicShares.slice(0, 2), stranger], 2)).toThrow(ThresholdKeyMismatchError);
    try {
      suite.checkPublicShares(publicKey, [...publicShares.slice(0, 2), stranger], 2);
    } catch (error) {
      expect((error as ThresholdKeyMismatchError).indices).toEqual([3]);
    }
    const round = await suite.blindThreshold({ groupPublicKey: publicKey, threshold: 2, publicShares }, 'id', 'x');
    const lying = { index: 1, evaluation: await suite.blindEvaluate((await suite.generateKeyPair()).privateKey, round.request) };
    await expect(
      round.finalize([lying, { index: 2, evaluation: await suite.blindEvaluate(shares[1]!.share, round.request) }]),
    ).rejects.toThrow(ThresholdUnavailableError);
  });
});
