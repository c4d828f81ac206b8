import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { deriveDidKey } from '../did-key.ts';
import rfc from '../vectors/rfc9497-ristretto255-sha512-oprf.json' with { type: 'json' };
import {
  blindLockers,
  deriveNoisyDid,
  evaluateLockers,
  finalizeLockers,
  irisCodeText,
  lockerInputs,
  lockerKeyPair,
  lockerOutputsWithKey,
  readBiometric,
  seededStream,
  syntheticIrisCode,
  templateBits,
  type LockerParams,
} from './index.ts';

const IRIS: LockerParams = { model: 'iris', lockers: 32, sampleBits: 20, regionStart: 0.5, regionEnd: 1 };

describe('lockerOutputsWithKey: the raw path’s evaluation by the key’s holder', () => {
  it('gives RFC 9497 Appendix A.1.1’s outputs, with no blind', () => {
    const outputs = lockerOutputsWithKey(
      rfc.vectors.map((v) => hexToBytes(v.input)),
      hexToBytes(rfc.skSm),
    );
    expect(outputs.map((o) => o && bytesToHex(o))).toEqual(rfc.vectors.map((v) => v.output));
  });

  it('gives the blinded round’s outputs for a template, masked lockers left out', () => {
    const key = lockerKeyPair(new TextEncoder().encode('raw path locker key test, 32 byt'));
    const eye = syntheticIrisCode(seededStream('raw path eye'));
    const reading = readBiometric(irisCodeText(eye), { experimentalNoisy: true });
    if (reading.kind !== 'noisy') throw new Error('not a template');
    const inputs = lockerInputs(templateBits(reading.template, IRIS));
    inputs[3] = undefined;
    const batch = blindLockers(inputs);
    const blinded = finalizeLockers(batch, evaluateLockers(key.secretKey, batch.blinded, IRIS.lockers));
    const direct = lockerOutputsWithKey(inputs, key.secretKey);
    expect(direct[3]).toBeUndefined();
    expect(direct.map((o) => o && bytesToHex(o))).toEqual(blinded.map((o) => o && bytesToHex(o)));
    expect(bytesToHex(direct[0]!)).toMatch(/^[0-9a-f]{128}$/);
  });
});

describe('deriveNoisyDid', () => {
  it('is a fixed did:key of a fixed seed, apart from the exact path’s DID of the same bytes', () => {
    const seed = hexToBytes('000102030405060708090a0b0c0d0e0f');
    const did = deriveNoisyDid(seed);
    expect(did).toBe(deriveNoisyDid(seed, ed25519.getPublicKey));
    expect(did).toMatch(/^did:key:z6Mk/);
    expect(did).toBe('did:key:z6MkuU5uLiKWtj2RSsjXuKGAJf8RuSgn3LrRsduKxkjSRnfK');
    expect(did).not.toBe(deriveDidKey(seed).did);
    expect(deriveNoisyDid(hexToBytes('000102030405060708090a0b0c0d0e0e'))).not.toBe(did);
  });
});
