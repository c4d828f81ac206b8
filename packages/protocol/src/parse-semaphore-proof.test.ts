import { describe, expect, it } from 'vitest';
import { parseSemaphoreProof } from './parse-semaphore-proof.ts';
import { BN254_BASE_FIELD, SNARK_SCALAR_FIELD } from './field.ts';
import { memberBucket } from './member-bucket.ts';

const proof = {
  merkleTreeDepth: 3,
  merkleTreeRoot: '12',
  nullifier: '34',
  message: '56',
  scope: '56',
  points: ['1', '2', '3', '4', '5', '6', '7', '8'],
};

describe('parseSemaphoreProof', () => {
  it('accepts a well-formed proof', () => {
    expect(parseSemaphoreProof(proof)).toEqual(proof);
  });

  it.each([
    ['depth 0', { merkleTreeDepth: 0 }],
    ['depth 33', { merkleTreeDepth: 33 }],
    ['a fractional depth', { merkleTreeDepth: 2.5 }],
    ['a public input equal to r', { nullifier: SNARK_SCALAR_FIELD.toString() }],
    ['a root above r', { merkleTreeRoot: (SNARK_SCALAR_FIELD + 12n).toString() }],
    ['leading zeros', { message: '056' }],
    ['hex', { scope: '0x38' }],
    ['a sign', { nullifier: '-34' }],
    ['seven points', { points: proof.points.slice(0, 7) }],
    ['a point coordinate equal to q', { points: [...proof.points.slice(0, 7), BN254_BASE_FIELD.toString()] }],
    ['a number instead of a string', { nullifier: 34 }],
  ])('rejects %s', (_name, change) => {
    expect(() => parseSemaphoreProof({ ...proof, ...change })).toThrow(expect.objectContaining({ code: 'INVALID_PROOF' }));
  });

  it('rejects what is not an object', () => {
    for (const value of [null, 'proof', 7, []])
      expect(() => parseSemaphoreProof(value)).toThrow(expect.objectContaining({ code: 'INVALID_PROOF' }));
  });
});

describe('memberBucket', () => {
  it('is a prefix of sha256 of the decimal commitment', () => {
    // sha256("123") = a665a459…
    expect(memberBucket('123', 4)).toBe('a665');
    expect(memberBucket('123', 0)).toBe('');
  });
});
