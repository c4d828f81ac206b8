import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { normaliseInput, voprfEvaluate, type OprfDomain } from '@zeroid/protocol';
import { babyJubjubSuite, deriveRegistration, v3KeyFromV2 } from '@zeroid/protocol/v3';
import derivation from '@zeroid/protocol/vectors/derivation.json' with { type: 'json' };
import voprfVectors from '@zeroid/protocol/vectors/rfc9497-ristretto255-sha512-voprf.json' with { type: 'json' };
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { libsodiumReady, sodiumEd25519PublicKey, sodiumRistrettoMultiply } from './libsodium.ts';
import { deriveFromRaw } from '../identity/raw/raw-identity.ts';
import { singleKeyOutputs } from '../identity/raw/single-key-outputs.ts';

describe('the raw path on libsodium', () => {
  beforeAll(() => libsodiumReady);

  it('gives the RFC 9497 VOPRF outputs (ristretto255-SHA512)', () => {
    const privateKey = hexToBytes(voprfVectors.skSm);
    for (const vector of voprfVectors.vectors) {
      for (const [i, input] of vector.input.entries()) {
        expect(bytesToHex(voprfEvaluate(privateKey, hexToBytes(input), sodiumRistrettoMultiply))).toBe(vector.output[i]);
      }
    }
  });

  it("derives our known-answer commitment, did:key and ID tag under v2, and v3's values as noble does", async () => {
    const privateKey = hexToBytes(derivation.oprfKey.privateKey);
    const v3Key = v3KeyFromV2(privateKey);
    const { v2, v3 } = singleKeyOutputs(privateKey);
    for (const vector of derivation.vectors) {
      const derived = await deriveFromRaw(v2, v3, { idInfo: vector.id, bioInfo: vector.bio, withSecretScalar: true });
      expect(derived.v2).toEqual({ commitment: vector.commitment, did: vector.did, idTag: vector.idTag, secretScalar: expect.any(String) });
      const output = async (domain: OprfDomain, text: string) =>
        BigInt(`0x${bytesToHex(await babyJubjubSuite.evaluate(v3Key, domain, normaliseInput(text)))}`);
      const expected = deriveRegistration(await output('bio', vector.bio), await output('id', vector.id));
      expect(derived.v3).toEqual({
        commitment: expected.commitment,
        did: expected.didKey.did,
        idTag: expected.idTag,
        secretScalar: expected.secretScalar.toString(),
      });
    }
  });

  it('equals noble for any key and input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ minLength: 0, maxLength: 200 }), (keyBytes, input) => {
        const privateKey = canonicalScalar(keyBytes);
        expect(bytesToHex(voprfEvaluate(privateKey, input, sodiumRistrettoMultiply))).toBe(bytesToHex(voprfEvaluate(privateKey, input)));
        const seed = keyBytes.subarray(0, 32);
        expect(bytesToHex(sodiumEd25519PublicKey(seed))).toBe(bytesToHex(ed25519.getPublicKey(seed)));
      }),
      { numRuns: 300 },
    );
  });
});

/** A uniform, non-zero scalar mod the ristretto255 group order, little-endian, as OPRF keys are. */
function canonicalScalar(bytes: Uint8Array): Uint8Array {
  const { Fn } = ed25519.Point;
  const scalar = Fn.create(BigInt(`0x${bytesToHex(bytes.slice().reverse())}`)) || 1n;
  return Fn.toBytes(scalar);
}
