/**
 * The public parameters of a sample-then-lock layout: `lockers` subsets of `sampleBits` positions each,
 * drawn from the part of the code [regionStart, regionEnd) (fractions of its length). The numbers are
 * set by the simulation in bench/noisy-biometrics.ts (decision 077): a genuine reading matches one
 * locker with probability (1 − BER)^sampleBits, an impostor with about 2^−sampleBits.
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
 * iris-unwrapping layout this assumes (angle-major, the upper sector first). 42 bits a locker and
 * 3,000 lockers put the false rejections near 5 % at a bit error rate of 0.15, and a false match
 * against 10⁶ people near 7·10⁻⁴.
 */
export const IRIS_PARAMS: LockerParams = { model: 'iris', lockers: 3000, sampleBits: 42, regionStart: 0.5, regionEnd: 1 };

/**
 * Face embeddings projected to 2,048 bits: a genuine pair at cosine 0.7 differs in a quarter of its
 * bits, so a locker can hold only 24 bits for 3,000 lockers to find one: far too few against 10⁶
 * people (decision 077 gives the numbers).
 */
export const FACE_PARAMS: LockerParams = { model: 'face', lockers: 3000, sampleBits: 24, regionStart: 0, regionEnd: 1 };
