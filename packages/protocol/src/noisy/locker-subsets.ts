import type { LockerParams } from './locker-params.ts';
import { seededStream } from './seeded-stream.ts';

/** The label of the public subsets; the model, layout and code length follow it. */
export const SUBSETS_LABEL = 'zeroid/noisy/subsets/v1';

const cache = new Map<string, Uint16Array[]>();

/**
 * The positions each locker samples, the same for every person: public, fixed by SUBSETS_LABEL, the
 * parameters and the code's length. Each subset takes one position in each of `sampleBits` equal
 * strata of the region, so its bits lie some 24 positions apart: neighbouring bits of an iris code
 * are correlated (about 249 independent bits in 2,048), and spreading the sample keeps an impostor's
 * chance of matching a locker near 2^−sampleBits instead of that of far fewer independent bits.
 * Being the same for everyone, a second registration of the same eye fills the same lockers with the
 * same values, which is how "already registered" is found.
 */
export function lockerSubsets(params: LockerParams, codeBits: number): Uint16Array[] {
  const key = `${params.model}/${params.lockers}/${params.sampleBits}/${params.regionStart}/${params.regionEnd}/${codeBits}`;
  let subsets = cache.get(key);
  if (!subsets) {
    const stream = seededStream(`${SUBSETS_LABEL}/${key}`);
    const start = Math.floor(params.regionStart * codeBits);
    const width = Math.floor(params.regionEnd * codeBits) - start;
    subsets = Array.from({ length: params.lockers }, () => {
      const positions = new Uint16Array(params.sampleBits);
      for (let i = 0; i < params.sampleBits; i++) {
        const from = start + Math.floor((i * width) / params.sampleBits);
        const to = start + Math.floor(((i + 1) * width) / params.sampleBits);
        positions[i] = from + stream.below(to - from);
      }
      return positions;
    });
    cache.set(key, subsets);
  }
  return subsets;
}
