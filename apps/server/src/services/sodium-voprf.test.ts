import { Evaluation, EvaluationRequest, VOPRFClient, VOPRFServer } from '@cloudflare/voprf-ts';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { OPRF_SUITE, oprfPublicKey, voprfEvaluate } from '@zeroid/protocol';
import voprfVectors from '@zeroid/protocol/vectors/rfc9497-ristretto255-sha512-voprf.json' with { type: 'json' };
import { CryptoNoble } from '@cloudflare/voprf-ts/crypto-noble';
import { beforeAll, describe, expect, it } from 'vitest';
import { libsodiumReady } from './libsodium.ts';
import { sodiumBlind, sodiumBlindEvaluate, sodiumCombine, sodiumFinalize, sodiumVerifiedEvaluation } from './sodium-voprf.ts';
import sodium from 'libsodium-wrappers-sumo';

const randomKey = () => sodium.crypto_core_ristretto255_scalar_random();

describe('RFC 9497 VOPRF on libsodium', () => {
  beforeAll(() => libsodiumReady);

  it('gives the RFC 9497 vectors byte for byte: evaluation, proof and output', () => {
    const privateKey = hexToBytes(voprfVectors.skSm);
    const publicKey = hexToBytes(voprfVectors.pkSm);
    for (const vector of voprfVectors.vectors.filter((v) => v.batch === 1)) {
      const blinded = hexToBytes(vector.blindedElement[0]!);
      const evaluation = sodiumBlindEvaluate(privateKey, publicKey, blinded, hexToBytes(vector.proofRandomScalar));
      expect(bytesToHex(evaluation)).toBe(`0001${vector.evaluationElement[0]}01${vector.proof}`);
      const evaluated = sodiumVerifiedEvaluation(publicKey, blinded, evaluation)!;
      expect(bytesToHex(evaluated)).toBe(vector.evaluationElement[0]);
      expect(bytesToHex(sodiumFinalize(hexToBytes(vector.input[0]!), hexToBytes(vector.blind[0]!), evaluated))).toBe(vector.output[0]);
    }
  });

  it("makes proofs voprf-ts's client accepts, and only for the key that made them", async () => {
    const privateKey = randomKey();
    const publicKey = oprfPublicKey(privateKey);
    const input = new TextEncoder().encode('zeroid proof test');
    const client = new VOPRFClient(OPRF_SUITE, publicKey, CryptoNoble);
    const [finalizeData, request] = await client.blind([input]);
    const blinded = request.serialize().subarray(2);
    const answer = Evaluation.deserialize(OPRF_SUITE, sodiumBlindEvaluate(privateKey, publicKey, blinded), CryptoNoble);
    const [output] = await client.finalize(finalizeData, answer);
    expect(bytesToHex(output!)).toBe(bytesToHex(voprfEvaluate(privateKey, input)));

    // Another key's evaluation, its proof made against the published key: voprf-ts refuses it.
    const wrong = Evaluation.deserialize(OPRF_SUITE, sodiumBlindEvaluate(randomKey(), publicKey, blinded), CryptoNoble);
    await expect(client.finalize(finalizeData, wrong)).rejects.toThrow();
    // and so does the verification here
    expect(sodiumVerifiedEvaluation(publicKey, blinded, wrong.serialize())).toBeUndefined();
  });

  it("accepts voprf-ts's server proofs and refuses a wrong key, a tampered element or proof", async () => {
    const privateKey = randomKey();
    const publicKey = oprfPublicKey(privateKey);
    const input = new TextEncoder().encode('another input');
    const { blind, blinded } = sodiumBlind(input);
    const server = new VOPRFServer(OPRF_SUITE, privateKey, CryptoNoble);
    const request = EvaluationRequest.deserialize(OPRF_SUITE, Uint8Array.from([0, 1, ...blinded]), CryptoNoble);
    const serialized = (await server.blindEvaluate(request)).serialize();
    const evaluated = sodiumVerifiedEvaluation(publicKey, blinded, serialized)!;
    expect(evaluated).toBeDefined();
    expect(bytesToHex(sodiumFinalize(input, blind, evaluated))).toBe(bytesToHex(voprfEvaluate(privateKey, input)));

    expect(sodiumVerifiedEvaluation(oprfPublicKey(randomKey()), blinded, serialized)).toBeUndefined();
    for (const at of [2, 40, 80]) {
      const tampered = serialized.slice();
      tampered[at]! ^= 1;
      expect(sodiumVerifiedEvaluation(publicKey, blinded, tampered)).toBeUndefined();
    }
    expect(sodiumVerifiedEvaluation(publicKey, blinded, serialized.subarray(0, 98))).toBeUndefined();
  });

  it('combines t partial evaluations into the single-key one (Lagrange in the exponent)', () => {
    // f(x) = k + a·x: shares f(1), f(2), f(3); any two give k·B.
    const k = randomKey();
    const a = randomKey();
    const share = (x: number) =>
      sodium.crypto_core_ristretto255_scalar_add(k, sodium.crypto_core_ristretto255_scalar_mul(a, Uint8Array.of(x, ...new Uint8Array(31))));
    const input = new TextEncoder().encode('combine');
    const { blind, blinded } = sodiumBlind(input);
    const partial = (x: number) => ({ index: x, element: sodium.crypto_scalarmult_ristretto255(share(x), blinded) });
    for (const pair of [
      [1, 2],
      [1, 3],
      [3, 2],
    ]) {
      const combined = sodiumCombine(pair.map(partial));
      expect(bytesToHex(sodiumFinalize(input, blind, combined))).toBe(bytesToHex(voprfEvaluate(k, input)));
    }
  });
});
