/**
 * The public parameters of a sample-then-lock layout: `lockers` subsets of `sampleBits` positions each,
 * drawn from the part of the code [regionStart, regionEnd) (fractions of its length). A genuine
 * reading opens one locker with probability about (1 − BER)^sampleBits, a stranger with about
 * 2^−sampleBits; bench/noisy-simulation.ts measures both on the synthetic data (decision 077).
 */
export interface LockerParams {
  model: 'iris' | 'face';
  lockers: number;
  sampleBits: number;
  regionStart: number;
  regionEnd: number;
}

/**
 * Iris codes: lockers sample the lower half of the code, which the upper eyelid does not cover in the
 * angle-major layout this assumes. 46 bits a locker and 20,000 lockers are the fewest that keep false
 * rejections near 5 % at a bit error rate of 0.15 with a stranger among 10⁶ people opening one below
 * 10⁻³: each bit more halves the strangers and costs 1/0.85 times the lockers.
 */
export const IRIS_PARAMS: LockerParams = { model: 'iris', lockers: 20_000, sampleBits: 46, regionStart: 0.5, regionEnd: 1 };

/**
 * Face embeddings projected to 2,048 bits: a genuine pair at cosine 0.7 differs in a quarter of its
 * bits, so 20,000 lockers can hold only 26 bits each for a reading to open one, and a stranger among
 * 10⁶ opens one almost surely (decision 077 gives the numbers).
 */
export const FACE_PARAMS: LockerParams = { model: 'face', lockers: 20_000, sampleBits: 26, regionStart: 0, regionEnd: 1 };
