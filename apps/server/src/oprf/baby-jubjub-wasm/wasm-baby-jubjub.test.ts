import { SNARK_SCALAR_FIELD, deriveCommitment, normaliseInput } from '@zeroid/protocol';
import { Fn, deriveRegistration, evaluateOutput, jsV3Arithmetic, oprfQuery } from '@zeroid/protocol/v3';
import known from '@zeroid/protocol/vectors/protocol-v3.json' with { type: 'json' };
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wasmV3Arithmetic } from './wasm-baby-jubjub.ts';

const wasm = wasmV3Arithmetic();
const bigintOf = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
/** Scalars of every size up to ℓ − 1, with the edges: 1, 2, ℓ − 1 and small ones (short window runs). */
const scalar = fc.oneof(
  fc.bigInt({ min: 1n, max: Fn.ORDER - 1n }),
  fc.constantFrom(1n, 2n, 15n, 16n, Fn.ORDER - 1n),
  fc.bigInt({ min: 1n, max: 1n << 20n }),
);

describe('protocol v3 arithmetic on WebAssembly (decision 063)', () => {
  it('gives the protocol v3 known answers: outputs, commitment, ID tag and did:key', () => {
    const key = BigInt(known.key);
    for (const vector of known.vectors) {
      const bio = bigintOf(evaluateOutput(key, 'bio', normaliseInput(vector.bio), wasm));
      const id = bigintOf(evaluateOutput(key, 'id', normaliseInput(vector.id), wasm));
      expect([bio.toString(), id.toString()]).toEqual([vector.bioRound.output, vector.idRound.output]);
      const registration = deriveRegistration(bio, id, undefined, wasm);
      expect([registration.secretScalar.toString(), registration.commitment, registration.idTag, registration.didKey.did]).toEqual([
        vector.secretScalar,
        vector.commitment,
        vector.idTag,
        vector.did,
      ]);
    }
  });

  it('equals noble for random queries and keys: y of k·H₁(query)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: SNARK_SCALAR_FIELD - 1n }), scalar, (query, key) => {
        expect(wasm.keyTimesQueryPointY(query, key)).toBe(jsV3Arithmetic.keyTimesQueryPointY(query, key));
      }),
      { numRuns: 80 },
    );
  });

  it('equals noble for random scalars times G, and for the queries of real texts', () => {
    fc.assert(
      fc.property(scalar, fc.string({ maxLength: 40 }), (s, text) => {
        expect(wasm.baseTimes(s)).toEqual(jsV3Arithmetic.baseTimes(s));
        const query = oprfQuery('id', text);
        expect(wasm.keyTimesQueryPointY(query, s)).toBe(jsV3Arithmetic.keyTimesQueryPointY(query, s));
      }),
      { numRuns: 80 },
    );
  });

  it("equals poseidon-lite's Poseidon and @taceo/poseidon2's permutation on random field elements", () => {
    const element = fc.oneof(fc.bigInt({ min: 0n, max: SNARK_SCALAR_FIELD - 1n }), fc.constantFrom(0n, 1n, SNARK_SCALAR_FIELD - 1n));
    fc.assert(
      fc.property(element, element, element, (a, b, c) => {
        expect(wasm.poseidon(a, b)).toBe(jsV3Arithmetic.poseidon(a, b));
        expect(wasm.poseidon2Word1([a, b, c])).toBe(jsV3Arithmetic.poseidon2Word1([a, b, c]));
      }),
      { numRuns: 200 },
    );
  });

  it("gives v2's Semaphore commitment as the protocol's noble code does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (output) => {
        expect(deriveCommitment(output, wasm)).toBe(deriveCommitment(output));
      }),
      { numRuns: 50 },
    );
  });
});
