import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import rfc from '../vectors/rfc9497-ristretto255-sha512-oprf.json' with { type: 'json' };
import {
  LockerTable,
  blindLockers,
  bucketQueries,
  deriveNoisyIdentity,
  evaluateLockers,
  finalizeLockers,
  irisCodeText,
  lockLockers,
  lockerInputs,
  lockerKeyPair,
  readBiometric,
  seededStream,
  syntheticFace,
  syntheticFaceReading,
  syntheticIrisCode,
  syntheticIrisReading,
  templateBits,
  unlockLockers,
  type LockerParams,
} from './index.ts';

// Small layouts, so a test runs in seconds: the bench measures the real ones (IRIS_PARAMS, FACE_PARAMS).
// 32 lockers of 20 bits: a reading at a bit error rate of 0.03 opens about half of them, one at 0.30
// about one in 1,300 each, an impostor one in a million.
const IRIS: LockerParams = { model: 'iris', lockers: 32, sampleBits: 20, regionStart: 0.5, regionEnd: 1 };
const FACE: LockerParams = { model: 'face', lockers: 32, sampleBits: 8, regionStart: 0, regionEnd: 1 };
const key = lockerKeyPair(new TextEncoder().encode('noisy lockers test key, 32 bytes'));

/** The client's OPRF batch and the server's answer for one reading: one attempt. */
function lockerOutputs(text: string, params: LockerParams) {
  const reading = readBiometric(text, { experimentalNoisy: true });
  if (reading.kind !== 'noisy') throw new Error('not a template');
  const batch = blindLockers(lockerInputs(templateBits(reading.template, params)));
  return finalizeLockers(batch, evaluateLockers(key.secretKey, batch.blinded, params.lockers));
}

/** A registry of lockers and Semaphore leaves, as the server would keep them. */
function registry(params: LockerParams) {
  const table = new LockerTable(params.lockers, 4);
  const leaves: string[] = [];
  return {
    table,
    leaves,
    register(text: string, seed: Uint8Array = crypto.getRandomValues(new Uint8Array(16)), rng?: (length: number) => Uint8Array) {
      const answer = table.register(lockLockers(lockerOutputs(text, params), seed, rng), leaves.length);
      if (answer === 'registered') leaves.push(deriveNoisyIdentity(seed).commitment);
      return answer;
    },
    /** The commitment a reading opens and finds at its leaf, or undefined. */
    verify(text: string) {
      const outputs = lockerOutputs(text, params);
      const replies = bucketQueries(outputs, table.bucketBits).map((bucket, j) => table.bucket(j, bucket));
      return unlockLockers(outputs, replies)
        .map((found) => ({ leaf: found.leafIndex, commitment: deriveNoisyIdentity(found.seed).commitment }))
        .find((found) => leaves[found.leaf] === found.commitment)?.commitment;
    },
  };
}

describe('the lockers’ OPRF is RFC 9497 OPRF(ristretto255, SHA-512)', () => {
  it('reproduces Appendix A.1.1 through blindLockers, evaluateLockers and finalizeLockers', () => {
    const inputs = rfc.vectors.map((v) => hexToBytes(v.input));
    const batch = blindLockers(
      inputs,
      undefined,
      rfc.vectors.map((v) => hexToBytes(v.blind)),
    );
    expect(batch.blinded.map(bytesToHex)).toEqual(rfc.vectors.map((v) => v.blindedElement));
    const evaluated = evaluateLockers(hexToBytes(rfc.skSm), batch.blinded, inputs.length);
    expect(evaluated.map(bytesToHex)).toEqual(rfc.vectors.map((v) => v.evaluationElement));
    expect(finalizeLockers(batch, evaluated).map((o) => o && bytesToHex(o))).toEqual(rfc.vectors.map((v) => v.output));
  });

  it('counts a verification as one batch of exactly its lockers', () => {
    const batch = blindLockers([new Uint8Array([1]), undefined]);
    expect(() => evaluateLockers(key.secretKey, batch.blinded, 3)).toThrow(/exactly 3/);
    expect(() => evaluateLockers(key.secretKey, [...batch.blinded, batch.blinded[0]!], 2)).toThrow(/exactly 2/);
  });
});

describe('sample-then-lock, known answers', () => {
  const eye = syntheticIrisCode(seededStream('known answer eye'));
  const text = irisCodeText(eye);
  const blinds = (n: number) =>
    Array.from({ length: n }, (_, i) => sha256(new Uint8Array([i, 7])).map((b, j) => (j === 31 ? b & 0x0f : b)));

  it('fixes the inputs, outputs, lockers and identity of a fixed eye, key and seed', () => {
    const reading = readBiometric(text, { experimentalNoisy: true });
    if (reading.kind !== 'noisy') throw new Error('not a template');
    const inputs = lockerInputs(templateBits(reading.template, IRIS));
    expect(inputs.filter((i) => i === undefined)).toHaveLength(0);
    expect(bytesToHex(inputs[0]!)).toBe('7a65726f69642f6e6f6973792f6c6f636b65722f76312f697269732f00000d88d0');
    const batch = blindLockers(inputs, undefined, blinds(inputs.length));
    const outputs = finalizeLockers(batch, evaluateLockers(key.secretKey, batch.blinded, IRIS.lockers));
    const seed = hexToBytes('000102030405060708090a0b0c0d0e0f');
    const lockers = lockLockers(outputs, seed);
    expect(bytesToHex(sha256(concatBytes(...lockers.flatMap((l) => [l.tag, l.seal]))))).toBe(
      '187ba105910e96b6d056ab7998f7328b630b5de5bf3736dedfa0efdae32f2e06',
    );
    expect(deriveNoisyIdentity(seed).commitment).toBe('17003906745447773315225039580042420958084232458531047672151316895313811869883');
  });
});

describe('a reading within the distance opens the identity, one beyond does not', () => {
  const eyes = Array.from({ length: 3 }, (_, i) => syntheticIrisCode(seededStream(`eye ${i}`)));
  const server = registry(IRIS);
  const registered: string[] = [];
  beforeAll(() => {
    for (const eye of eyes) {
      expect(server.register(irisCodeText(eye))).toBe('registered');
      registered.push(server.leaves.at(-1)!);
    }
  });

  it('derives the registered commitment from new readings at a bit error rate of 0.03', () => {
    eyes.forEach((eye, i) => {
      const reading = syntheticIrisReading(eye, 0.03, seededStream(`near reading ${i}`));
      expect(server.verify(irisCodeText(reading))).toBe(registered[i]);
    });
  });

  it('derives nothing from readings at 0.30, nor from another eye', () => {
    eyes.forEach((eye, i) => {
      expect(server.verify(irisCodeText(syntheticIrisReading(eye, 0.3, seededStream(`far reading ${i}`))))).toBeUndefined();
      expect(server.verify(irisCodeText(syntheticIrisCode(seededStream(`stranger ${i}`))))).toBeUndefined();
    });
  });

  it('refuses a second registration of the same eye from a new reading, and accepts a new eye', () => {
    const again = syntheticIrisReading(eyes[0]!, 0.03, seededStream('second registration'));
    expect(server.register(irisCodeText(again))).toBe('already registered');
    expect(server.register(irisCodeText(syntheticIrisCode(seededStream('new eye'))))).toBe('registered');
  });

  it('derives a face embedding’s identity from another reading of the same face only', () => {
    const faces = registry(FACE);
    const face = syntheticFace(seededStream('face'));
    expect(faces.register(JSON.stringify([...face]))).toBe('registered');
    const mine = syntheticFaceReading(face, seededStream('face reading'));
    expect(faces.verify(JSON.stringify([...mine]))).toBe(faces.leaves[0]);
    expect(faces.verify(JSON.stringify([...syntheticFace(seededStream('other face'))]))).toBeUndefined();
  });
});

describe('the stored lockers hold no template', () => {
  it('has none of the codes, their lockers’ inputs nor the seeds in its bytes', () => {
    const server = registry(IRIS);
    const seeds: Uint8Array[] = [];
    const eyes = Array.from({ length: 3 }, (_, i) => syntheticIrisCode(seededStream(`stored eye ${i}`)));
    // Fixed seeds and filler, so the scan below sees the same bytes every run.
    const filler = seededStream('filler');
    const rng = (length: number) => Uint8Array.from({ length }, () => filler.below(256));
    for (const [i, eye] of eyes.entries()) {
      const seed = sha256(new Uint8Array([i])).subarray(0, 16);
      seeds.push(seed);
      expect(server.register(irisCodeText(eye), seed, rng)).toBe('registered');
    }
    const stored = server.table.encode();
    expect(stored.length).toBe(3 * IRIS.lockers * 30);
    const storedHex = bytesToHex(stored);
    const text = new TextDecoder('latin1').decode(stored);
    for (const [i, eye] of eyes.entries()) {
      const codeHex = irisCodeText(eye).split(':')[0]!;
      // Any 6 bytes of the packed code, anywhere. A window of fewer than four distinct bytes (runs of
      // equal bits: 00, ff, 80…) says little of the eye and turns up beside the leaf and locker numbers.
      for (let at = 0; at + 12 <= codeHex.length; at += 2) {
        const window = codeHex.slice(at, at + 12);
        if (new Set(window.match(/../g)).size >= 4) expect(storedHex.includes(window) ? window : false).toBe(false);
      }
      expect(text.includes(irisCodeText(eye).slice(0, 16))).toBe(false);
      const inputs = lockerInputs(templateBits({ kind: 'code', bits: eye.bits, valid: eye.valid }, IRIS)).filter((x) => x !== undefined);
      expect(inputs.length).toBeGreaterThan(IRIS.lockers / 2);
      for (const input of inputs) expect(storedHex.includes(bytesToHex(input))).toBe(false);
      expect(storedHex.includes(bytesToHex(seeds[i]!))).toBe(false);
    }
  });
});
