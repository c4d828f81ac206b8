import { randomBytes } from 'node:crypto';
import sodium from 'libsodium-wrappers-sumo';
import native from '@zeroid/sodium-ristretto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ristretto255 as noble } from '@noble/curves/ed25519.js';
import { bit255Encodings, invalidEncodings, validEncodings } from '../../test/ristretto255-invalid-encodings.ts';
import { libsodiumReady, nativeRistretto255, ristretto255, wasmRistretto255 } from './libsodium.ts';
import { sodiumBlindedElements } from './sodium-voprf.ts';

/**
 * The native addon (decision 031) against libsodium's WebAssembly, operation by operation: the same
 * bytes for random inputs and the same refusals, so every derivation, node evaluation and proof is
 * the same whichever one a machine has. sodium-voprf.test.ts runs the RFC 9497 vectors on top.
 */
describe('ristretto255 on native libsodium', () => {
  beforeAll(async () => {
    await libsodiumReady;
  });

  it('is built and in use (CI installs libsodium-dev; elsewhere: apt-get install libsodium-dev && npm rebuild @zeroid/sodium-ristretto)', () => {
    expect(native, 'the @zeroid/sodium-ristretto addon did not load').toBeDefined();
    expect(native!.libsodiumVersion).toMatch(/^1\.0\.(1[89]|2\d)/);
    expect(ristretto255).toBe(nativeRistretto255);
  });

  it('gives the bytes of the WebAssembly for random inputs', () => {
    const wasm = wasmRistretto255;
    const addon = native!;
    for (let i = 0; i < 100; i++) {
      const scalar = sodium.crypto_core_ristretto255_scalar_random();
      const hash = new Uint8Array(randomBytes(64));
      const p = wasm.fromHash(hash);
      const q = wasm.fromHash(new Uint8Array(randomBytes(64)));
      expect(addon.fromHash(hash)).toEqual(p);
      expect(addon.scalarmult(scalar, p)).toEqual(wasm.scalarmult(scalar, p));
      expect(addon.scalarmultBase(scalar)).toEqual(wasm.scalarmultBase(scalar));
      expect(addon.add(p, q)).toEqual(wasm.add(p, q));
      expect(addon.isValidPoint(p)).toBe(true);
      // Returns plain Uint8Arrays, as libsodium-wrappers does (not Buffers, whose slice() shares memory).
      expect(Object.getPrototypeOf(addon.scalarmult(scalar, p))).toBe(Uint8Array.prototype);
    }
  });

  it('refuses what the WebAssembly refuses', () => {
    const addon = native!;
    const scalar = sodium.crypto_core_ristretto255_scalar_random();
    const identity = new Uint8Array(32);
    // A non-canonical encoding (the field element p + 1 is not reduced) and a non-square one.
    const nonCanonical = Uint8Array.from(Buffer.from('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'hex'));
    const notOnCurve = Uint8Array.from(Buffer.from('0100000000000000000000000000000000000000000000000000000000000000', 'hex'));
    for (const element of [identity, nonCanonical, notOnCurve]) {
      expect(() => addon.scalarmult(scalar, element)).toThrow();
      expect(() => wasmRistretto255.scalarmult(scalar, element)).toThrow();
      expect(addon.isValidPoint(element)).toBe(wasmRistretto255.isValidPoint(element));
    }
    expect(() => addon.add(nonCanonical, notOnCurve)).toThrow();
    expect(() => addon.scalarmultBase(new Uint8Array(32))).toThrow();
    // Wrong sizes and types throw a TypeError before libsodium reads a byte.
    expect(() => addon.scalarmult(scalar, new Uint8Array(31))).toThrow(TypeError);
    expect(() => addon.scalarmult(new Uint8Array(33), wasmRistretto255.scalarmultBase(scalar))).toThrow(TypeError);
    expect(() => addon.fromHash(new Uint8Array(32))).toThrow(TypeError);
    expect(() => addon.isValidPoint('x' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => (addon.add as (p: Uint8Array) => Uint8Array)(scalar)).toThrow(TypeError);
  });
});

/**
 * One gate on every backend (decision 033): RFC 9496's invalid encodings, encodings with bit 255
 * set, values at or above p and the identity are refused by the addon and the WebAssembly alike, as
 * noble (RFC 9496's Decode) refuses them, before anything is evaluated.
 */
describe('the ristretto255 encoding gate', () => {
  beforeAll(async () => {
    await libsodiumReady;
  });
  const scalar = () => sodium.crypto_core_ristretto255_scalar_random();
  const nobleAccepts = (bytes: Uint8Array) => {
    try {
      return !noble.Point.fromBytes(bytes).is0();
    } catch {
      return false;
    }
  };

  it('is needed: libsodium 1.0.18 (the addon) alone accepts a valid encoding with bit 255 set', () => {
    for (const bytes of bit255Encodings) {
      expect(native!.isValidPoint(bytes)).toBe(true);
      expect(sodium.crypto_core_ristretto255_is_valid_point(bytes)).toBe(false);
      expect(nobleAccepts(bytes)).toBe(false);
    }
  });

  it.each([
    ['native addon', () => nativeRistretto255!],
    ['WebAssembly', () => wasmRistretto255],
  ])('refuses the same list on the %s', (_name, backend) => {
    expect(invalidEncodings.length).toBe(36);
    for (const [kind, bytes] of invalidEncodings) {
      expect(nobleAccepts(bytes), kind).toBe(false);
      expect(sodiumBlindedElements(Uint8Array.from([0, 1, ...bytes]), 1), kind).toBeUndefined();
      if (kind === 'identity') continue; // a valid encoding, refused as an OPRF element only
      expect(backend().isValidPoint(bytes), kind).toBe(false);
      expect(() => backend().scalarmult(scalar(), bytes), kind).toThrow();
      expect(() => backend().add(bytes, validEncodings[0]!), kind).toThrow();
    }
    for (const bytes of validEncodings) {
      expect(backend().isValidPoint(bytes)).toBe(true);
      expect(sodiumBlindedElements(Uint8Array.from([0, 1, ...bytes]), 1)).toEqual([bytes]);
    }
  });
});
