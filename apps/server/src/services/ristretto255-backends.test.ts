import { randomBytes } from 'node:crypto';
import sodium from 'libsodium-wrappers-sumo';
import native from '@zeroid/sodium-ristretto';
import { beforeAll, describe, expect, it } from 'vitest';
import { libsodiumReady, ristretto255, wasmRistretto255 } from './libsodium.ts';

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
    expect(ristretto255).toBe(native);
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
