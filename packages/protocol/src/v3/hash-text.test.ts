import { hash_to_field } from '@noble/curves/abstract/hash-to-curve.js';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { hashText } from './hash-text.ts';
import { QUERY_DST } from './oprf-suite.ts';

describe('hashText', () => {
  it("is RFC 9380 hash_to_field as noble computes it, for any text (decision 063's shortcut)", () => {
    const options = { DST: QUERY_DST, p: SNARK_SCALAR_FIELD, m: 1, k: 128, expand: 'xmd', hash: sha256 } as const;
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300, unit: 'grapheme' }), fc.string({ minLength: 100, maxLength: 3000 })), (text) => {
        const [[expected]] = hash_to_field(new TextEncoder().encode(text), 1, options) as [[bigint]];
        expect(hashText(text)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
