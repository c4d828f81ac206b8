import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IRIS_BITS, IRIS_PARAMS, lockerSubsets } from '@zeroid/protocol/noisy';
import { Problem } from '../problem.ts';
import { MIN_SEEN_LOCKERS, readNoisyBio } from './read-noisy-bio.ts';

const on = { experimentalNoisyBiometrics: true };
const hex = (bits: Uint8Array) => {
  const bytes = Buffer.alloc(bits.length / 8);
  bits.forEach((bit, i) => {
    if (bit) bytes[i >> 3]! |= 0x80 >> (i & 7);
  });
  return bytes.toString('hex');
};
const refusal = (text: string) => {
  try {
    readNoisyBio(on, text);
    return undefined;
  } catch (error) {
    return error instanceof Problem ? error.code : String(error);
  }
};

describe('readNoisyBio', () => {
  it('never lets two masks of one code register apart: masks that split the lockers between them are refused', () => {
    // Each locker samples one bit from each of the layout's ranges. Hiding part of one range's positions
    // in mask A and the rest in mask B leaves no locker seen by both; choose the part so that each sees
    // as close to half the lockers as the counts allow.
    const subsets = lockerSubsets(IRIS_PARAMS, IRIS_BITS);
    const perPosition = new Map<number, number>();
    for (const subset of subsets) perPosition.set(subset[0]!, (perPosition.get(subset[0]!) ?? 0) + 1);
    const hiddenInA: number[] = [];
    let seenByB = 0;
    for (const [position, count] of perPosition) {
      if (seenByB + count > IRIS_PARAMS.lockers / 2) continue;
      hiddenInA.push(position);
      seenByB += count;
    }
    const maskA = new Uint8Array(IRIS_BITS).fill(1);
    const maskB = new Uint8Array(IRIS_BITS).fill(1);
    for (const position of perPosition.keys()) (hiddenInA.includes(position) ? maskA : maskB)[position] = 0;
    const seen = (mask: Uint8Array) => subsets.filter((subset) => [...subset].every((position) => mask[position] === 1)).length;
    expect(seen(maskA) + seen(maskB)).toBe(IRIS_PARAMS.lockers);
    const code = hex(new Uint8Array(randomBytes(IRIS_BITS)).map((byte) => byte & 1));
    const refused = [maskA, maskB].map((mask) => refusal(`${code}:${hex(mask)}`));
    // Disjoint sets of lockers cannot both hold more than half of them: at least one mask is refused.
    expect(refused.filter((code) => code === 'NOISY_MASK_TOO_SPARSE').length).toBeGreaterThanOrEqual(1);
    expect(2 * MIN_SEEN_LOCKERS).toBeGreaterThan(IRIS_PARAMS.lockers);
  });
});
