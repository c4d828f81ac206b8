import { sha256 } from '@noble/hashes/sha2.js';

/** A deterministic stream of numbers from a public label. */
export interface SeededStream {
  /** A uniform 32-bit unsigned integer. */
  uint32(): number;
  /** A uniform integer in [0, bound), by rejection, so it carries no modulo bias. */
  below(bound: number): number;
  /** A uniform number in [0, 1). */
  uniform(): number;
  /** A standard normal number (Box–Muller). */
  normal(): number;
}

/**
 * The public randomness of the noisy-biometric scheme: the sampled subsets and the random projection
 * are fixed by a label anyone can recompute, so a client and a server agree on them without storing
 * them, and an auditor can check that they were not chosen to favour anyone. The generator is
 * xoshiro128** (Blackman and Vigna) seeded with SHA-256 of the label: not cryptographic, and it need
 * not be, since nothing it makes is secret; it is fast enough to draw the projection's million normals
 * in a browser. Also used, with other labels, to make the synthetic data sets reproducible. Never used
 * for secrets.
 */
export function seededStream(label: string): SeededStream {
  const seed = new DataView(sha256(new TextEncoder().encode(label)).buffer);
  const s = new Uint32Array([seed.getUint32(0), seed.getUint32(4), seed.getUint32(8), seed.getUint32(12)]);
  if (s.every((word) => word === 0)) s[0] = 1;
  const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
  const uint32 = () => {
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
    const t = s[1]! << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  };
  const uniform = () => uint32() / 2 ** 32;
  return {
    uint32,
    uniform,
    below(bound) {
      const limit = Math.floor(2 ** 32 / bound) * bound;
      for (;;) {
        const value = uint32();
        if (value < limit) return value % bound;
      }
    },
    normal() {
      const u = 1 - uniform();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
    },
  };
}
