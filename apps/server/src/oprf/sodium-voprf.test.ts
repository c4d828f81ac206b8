import { Evaluation, EvaluationRequest, VOPRFClient, VOPRFServer } from '@cloudflare/voprf-ts';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { OPRF_SUITE, oprfPublicKey, voprfEvaluate } from '@zeroid/protocol';
import voprfVectors from '@zeroid/protocol/vectors/rfc9497-ristretto255-sha512-voprf.json' with { type: 'json' };
import { CryptoNoble } from '@cloudflare/voprf-ts/crypto-noble';
import { beforeAll, describe, expect, it } from 'vitest';
import { libsodiumReady } from './libsodium.ts';
import {
  sodiumBlind,
  sodiumBlindedElements,
  sodiumBlindEvaluateBatch,
  sodiumCombine,
  sodiumFinalizeUnblinded,
  sodiumUnblinder,
  sodiumVerifiedEvaluations,
} from './sodium-voprf.ts';
import { sodiumBlindEvaluate, sodiumFinalize, sodiumVerifiedEvaluation } from '../../test/sodium-single-element.ts';
import sodium from 'libsodium-wrappers-sumo';

const randomKey = () => sodium.crypto_core_ristretto255_scalar_random();

/** A random key k and its shares f(x) = k + a·x (any two determine k); `partial` is one node's answer to a blinded element. */
function twoOfThree() {
  const k = randomKey();
  const a = randomKey();
  const share = (x: number) =>
    sodium.crypto_core_ristretto255_scalar_add(k, sodium.crypto_core_ristretto255_scalar_mul(a, Uint8Array.of(x, ...new Uint8Array(31))));
  const partial = (x: number, blinded: Uint8Array) => ({ index: x, element: sodium.crypto_scalarmult_ristretto255(share(x), blinded) });
  return { k, partial };
}

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
    const { k, partial } = twoOfThree();
    const input = new TextEncoder().encode('combine');
    const { blind, blinded } = sodiumBlind(input);
    // Each pair twice: the second time its Lagrange coefficients come from the cache.
    for (const pair of [
      [1, 2],
      [1, 3],
      [3, 2],
      [1, 2],
      [3, 2],
    ]) {
      const combined = sodiumCombine(pair.map((x) => partial(x, blinded)));
      expect(bytesToHex(sodiumFinalize(input, blind, combined))).toBe(bytesToHex(voprfEvaluate(k, input)));
    }
  });

  it('gives the RFC 9497 batch vector byte for byte: two elements, one proof (decision 027)', () => {
    const privateKey = hexToBytes(voprfVectors.skSm);
    const publicKey = hexToBytes(voprfVectors.pkSm);
    const batches = voprfVectors.vectors.filter((v) => v.batch === 2);
    expect(batches.length).toBeGreaterThan(0);
    for (const vector of batches) {
      const blinded = vector.blindedElement.map(hexToBytes);
      const evaluation = sodiumBlindEvaluateBatch(privateKey, publicKey, blinded, hexToBytes(vector.proofRandomScalar));
      expect(bytesToHex(evaluation)).toBe(`0002${vector.evaluationElement.join('')}01${vector.proof}`);
      const evaluated = sodiumVerifiedEvaluations(publicKey, blinded, evaluation)!;
      expect(evaluated.map(bytesToHex)).toEqual(vector.evaluationElement);
      evaluated.forEach((element, i) =>
        expect(bytesToHex(sodiumFinalize(hexToBytes(vector.input[i]!), hexToBytes(vector.blind[i]!), element))).toBe(vector.output[i]),
      );
      // Verified as a batch only: in the other order, or one element alone, the proof fails.
      expect(sodiumVerifiedEvaluations(publicKey, [blinded[1]!, blinded[0]!], evaluation)).toBeUndefined();
      expect(sodiumVerifiedEvaluations(publicKey, blinded.slice(0, 1), evaluation)).toBeUndefined();
    }
  });

  it("makes batch proofs voprf-ts's client accepts, accepts voprf-ts's, and refuses a batch with one element tampered", async () => {
    const privateKey = randomKey();
    const publicKey = oprfPublicKey(privateKey);
    const inputs = ['bio batch', 'id batch'].map((text) => new TextEncoder().encode(text));
    const client = new VOPRFClient(OPRF_SUITE, publicKey, CryptoNoble);
    const [finalizeData, request] = await client.blind(inputs);
    const serializedRequest = request.serialize();
    const blinded = sodiumBlindedElements(serializedRequest, 2)!;
    expect(blinded).toHaveLength(2);
    const ours = sodiumBlindEvaluateBatch(privateKey, publicKey, blinded);
    const outputs = await client.finalize(finalizeData, Evaluation.deserialize(OPRF_SUITE, ours, CryptoNoble));
    expect(outputs.map(bytesToHex)).toEqual(inputs.map((input) => bytesToHex(voprfEvaluate(privateKey, input))));

    const theirs = (await new VOPRFServer(OPRF_SUITE, privateKey, CryptoNoble).blindEvaluate(request)).serialize();
    expect(sodiumVerifiedEvaluations(publicKey, blinded, theirs)).toHaveLength(2);
    for (const evaluation of [ours, theirs]) {
      // The second element replaced by another key's evaluation of it, the proof left as it was.
      const tampered = evaluation.slice();
      tampered.set(sodium.crypto_scalarmult_ristretto255(randomKey(), blinded[1]!), 2 + 32);
      expect(sodiumVerifiedEvaluations(publicKey, blinded, tampered)).toBeUndefined();
      await expect(client.finalize(finalizeData, Evaluation.deserialize(OPRF_SUITE, tampered, CryptoNoble))).rejects.toThrow();
      expect(sodiumVerifiedEvaluations(oprfPublicKey(randomKey()), blinded, evaluation)).toBeUndefined();
    }
    // A batch proof made with another key against the published one: refused here and by voprf-ts.
    const forged = sodiumBlindEvaluateBatch(randomKey(), publicKey, blinded);
    expect(sodiumVerifiedEvaluations(publicKey, blinded, forged)).toBeUndefined();
    await expect(client.finalize(finalizeData, Evaluation.deserialize(OPRF_SUITE, forged, CryptoNoble))).rejects.toThrow();
  });

  it('reads 1 to max canonical, non-identity elements from an EvaluationRequest and nothing else', () => {
    const point = () => sodium.crypto_core_ristretto255_random();
    const request = (...elements: Uint8Array[]) => Uint8Array.from([0, elements.length, ...elements.flatMap((e) => [...e])]);
    const [a, b] = [point(), point()];
    expect(sodiumBlindedElements(request(a), 1)!.map(bytesToHex)).toEqual([bytesToHex(a)]);
    expect(sodiumBlindedElements(request(a, b), 2)!.map(bytesToHex)).toEqual([bytesToHex(a), bytesToHex(b)]);
    expect(sodiumBlindedElements(request(a, b), 1)).toBeUndefined(); // more than max
    expect(sodiumBlindedElements(request(a, b, point()), 2)).toBeUndefined();
    expect(sodiumBlindedElements(request(), 2)).toBeUndefined(); // none
    expect(sodiumBlindedElements(request(a).subarray(0, 33), 1)).toBeUndefined(); // short
    expect(sodiumBlindedElements(Uint8Array.from([0, 1, ...a, 0]), 1)).toBeUndefined(); // long
    expect(sodiumBlindedElements(Uint8Array.from([1, 1, ...a]), 2)).toBeUndefined(); // count 257
    expect(sodiumBlindedElements(request(a, new Uint8Array(32)), 2)).toBeUndefined(); // the identity
    expect(sodiumBlindedElements(request(new Uint8Array(32).fill(0xff)), 1)).toBeUndefined(); // not canonical
    const notOnCurve = a.slice();
    notOnCurve[0]! ^= 1; // a negative (odd) field element: never a canonical encoding
    expect(sodiumBlindedElements(request(notOnCurve), 1)).toBeUndefined();
  });

  it('unblinds inside the Lagrange combination: the same output as combining, then Finalize', () => {
    const { k, partial } = twoOfThree();
    const input = new TextEncoder().encode('scaled combine');
    const { blind, blinded } = sodiumBlind(input);
    const partials = [2, 3].map((x) => partial(x, blinded));
    const output = sodiumFinalizeUnblinded(input, sodiumCombine(partials, sodiumUnblinder(blind)));
    expect(bytesToHex(output)).toBe(bytesToHex(voprfEvaluate(k, input)));
  });
});
