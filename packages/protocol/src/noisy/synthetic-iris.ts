import { hex } from '@scure/base';
import type { SeededStream } from './seeded-stream.ts';

/** Bits of a synthetic iris code, as Daugman's. */
export const IRIS_BITS = 2048;
/**
 * Probability that a bit differs from its neighbour. The XOR of two independent codes then flips with
 * 2f(1−f) = 0.1086 a step (correlation ρ = 0.783), so an impostor's fractional Hamming distance has
 * n(1−ρ)/(1+ρ) ≈ 249 degrees of freedom: mean 0.5, standard deviation 0.0317, Daugman's figures for
 * 9.1 million comparisons ("How iris recognition works", IEEE TCSVT 14(1), 2004).
 */
export const NEIGHBOUR_FLIP = 0.0576;
/** Probability that an error follows an error: bursts of two bits on average, as a smudge or a fold would make. */
export const ERROR_BURST = 0.5;

/** A synthetic iris code with its mask: bit 1 of `valid` = seen. */
export interface IrisCode {
  bits: Uint8Array;
  valid: Uint8Array;
}

/**
 * A mask in the angle-major layout the lockers assume: the upper eyelid covers one run of up to a
 * quarter of the code in its upper half; one reading in ten also has a 4-bit reflection anywhere.
 */
function syntheticMask(stream: SeededStream): Uint8Array {
  const valid = new Uint8Array(IRIS_BITS).fill(1);
  const lid = Math.floor(stream.uniform() * 0.25 * IRIS_BITS);
  const lidStart = stream.below(IRIS_BITS / 2 - lid + 1);
  valid.fill(0, lidStart, lidStart + lid);
  if (stream.uniform() < 0.1) {
    const at = stream.below(IRIS_BITS - 4);
    valid.fill(0, at, at + 4);
  }
  return valid;
}

/** A new eye's code: a Markov chain with NEIGHBOUR_FLIP, and its enrolment mask. */
export function syntheticIrisCode(stream: SeededStream): IrisCode {
  const bits = new Uint8Array(IRIS_BITS);
  bits[0] = stream.below(2);
  for (let i = 1; i < IRIS_BITS; i++) bits[i] = stream.uniform() < NEIGHBOUR_FLIP ? 1 - bits[i - 1]! : bits[i - 1]!;
  return { bits, valid: syntheticMask(stream) };
}

/**
 * Another reading of the same eye at bit error rate `ber`: errors form a two-state Markov chain with
 * stationary rate `ber` and ERROR_BURST, the reading has its own mask, and masked bits are noise.
 */
export function syntheticIrisReading(eye: IrisCode, ber: number, stream: SeededStream): IrisCode {
  const valid = syntheticMask(stream);
  const bits = new Uint8Array(IRIS_BITS);
  const afterOk = (ber * (1 - ERROR_BURST)) / (1 - ber);
  let error = stream.uniform() < ber;
  for (let i = 0; i < IRIS_BITS; i++) {
    if (i > 0) error = stream.uniform() < (error ? ERROR_BURST : afterOk);
    bits[i] = valid[i] ? eye.bits[i]! ^ (error ? 1 : 0) : stream.below(2);
  }
  return { bits, valid };
}

function pack(bits: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(bits.length / 8);
  bits.forEach((bit, i) => {
    bytes[i >> 3]! |= bit << (7 - (i & 7));
  });
  return bytes;
}

/** An iris code as biometric text: the code and its mask in hex, separated by ':'. */
export const irisCodeText = (code: IrisCode) => `${hex.encode(pack(code.bits))}:${hex.encode(pack(code.valid))}`;
