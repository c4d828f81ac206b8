import { Identity } from '@semaphore-protocol/identity';
import fc from 'fast-check';
import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { semaphoreCommitment } from './baby-jubjub-commitment.ts';
import { deriveCommitment, deriveIdentity, deriveProvingIdentity } from './derive-identity.ts';
import known from './vectors/derivation.json' with { type: 'json' };

describe('the fast Semaphore commitment', () => {
  it('gives the known-answer commitments', () => {
    const vectors = (known as { vectors: Array<{ oprfBio: string; commitment: string }> }).vectors;
    expect(vectors.length).toBeGreaterThan(0);
    for (const vector of vectors) expect(deriveCommitment(hexToBytes(vector.oprfBio)).toString()).toBe(vector.commitment);
  });

  it('equals new Identity(privateKey).commitment for any private key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (privateKey) => {
        expect(semaphoreCommitment(privateKey)).toBe(new Identity(privateKey).commitment);
      }),
      { numRuns: 60 },
    );
  });

  it('equals deriveIdentity(oprfBio) in commitment and secret scalar', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (oprfBio) => {
        const identity = deriveIdentity(oprfBio);
        expect(deriveCommitment(oprfBio)).toBe(identity.commitment);
        expect(deriveProvingIdentity(oprfBio)).toEqual({ secretScalar: identity.secretScalar, commitment: identity.commitment });
      }),
      { numRuns: 20 },
    );
  });
});
