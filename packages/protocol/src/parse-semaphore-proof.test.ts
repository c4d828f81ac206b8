import { describe, expect, it } from 'vitest';
import { parseSemaphoreProof } from './parse-semaphore-proof.ts';
import { BN254_BASE_FIELD, SNARK_SCALAR_FIELD } from './field.ts';
import { memberBucket } from './member-bucket.ts';
import { bytesToHex } from '@noble/hashes/utils.js';

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
    ['nine points', { points: [...proof.points, '9'] }],
    ['a missing scope', { scope: undefined }],
    ['a depth given as a string', { merkleTreeDepth: '3' }],
    ['an empty string', { merkleTreeRoot: '' }],
    ['white space around a number', { message: ' 56' }],
    ['a point coordinate equal to q', { points: [...proof.points.slice(0, 7), BN254_BASE_FIELD.toString()] }],
    ['a number instead of a string', { nullifier: 34 }],
  ])('rejects %s', (_name, change) => {
    expect(() => parseSemaphoreProof({ ...proof, ...change })).toThrow(expect.objectContaining({ code: 'INVALID_PROOF' }));
  });

  it('returns only the proof’s fields, and accepts a coordinate in [r, q) (points live in the base field)', () => {
    const points = [...proof.points.slice(0, 7), SNARK_SCALAR_FIELD.toString()];
    const parsed = parseSemaphoreProof({ ...proof, points, extra: 'x' });
    expect(parsed).toEqual({ ...proof, points });
    expect(Object.keys(parsed).sort()).toEqual(['merkleTreeDepth', 'merkleTreeRoot', 'message', 'nullifier', 'points', 'scope']);
  });

  it('accepts the extremes: depth 1 and 32, public inputs 0 and r − 1', () => {
    const largest = (SNARK_SCALAR_FIELD - 1n).toString();
    expect(parseSemaphoreProof({ ...proof, merkleTreeDepth: 1, nullifier: '0' }).merkleTreeDepth).toBe(1);
    expect(parseSemaphoreProof({ ...proof, merkleTreeDepth: 32, merkleTreeRoot: largest }).merkleTreeRoot).toBe(largest);
  });

  it('says why, without quoting the value', () => {
    expect(() => parseSemaphoreProof({ ...proof, scope: '0xdeadbeef' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('deadbeef') as unknown }),
    );
  });

  it('rejects what is not an object', () => {
    for (const value of [null, 'proof', 7, []])
      expect(() => parseSemaphoreProof(value)).toThrow(expect.objectContaining({ code: 'INVALID_PROOF' }));
  });
});

describe('memberBucket', () => {
  it('is a prefix of sha256 of the decimal commitment, the same for every prefix length', async () => {
    const commitment = '8707654725377623321881158202308780290262566198375154506600895434726665555969';
    const digest = bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(commitment))));
    for (const chars of [1, 2, 3, 4, 64]) expect(memberBucket(commitment, chars)).toBe(digest.slice(0, chars));
  });

  it('is a known prefix of sha256("123")', () => {
    // sha256("123") = a665a459…
    expect(memberBucket('123', 4)).toBe('a665');
    expect(memberBucket('123', 0)).toBe('');
  });
});
