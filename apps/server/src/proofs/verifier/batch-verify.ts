import { randomBytes } from 'node:crypto';
import { BASE_FIELD_MODULUS, fr, g1, g2, loadBn254, mcl, millerLoopVec, SCALAR_FIELD_MODULUS, type G1, type G2, type GT } from './bn254.ts';
import { isInG2 } from './g2-membership.ts';

/** A Groth16 verification key as snarkjs writes it (Semaphore's `semaphore-<depth>.json`, `registration-v3.vkey.json`). */
export interface VerificationKey {
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  IC: string[][];
}

/** One proof to check: which verification key, snarkjs' unpacked points and the public signals, in decimal. */
export interface Groth16Claim {
  /** The key's name: `semaphore-<depth>` for a Semaphore proof, `registration-v3` for a v3 registration (decision 056). */
  key: string;
  publicSignals: string[];
  proof: { pi_a: string[]; pi_b: string[][]; pi_c: string[] };
}

/** What does not depend on the proof, decoded once per key. */
interface PreparedKey {
  ic: G1[];
  negAlpha: G1;
  /** The Miller loop of (−α, β), for a batch whose r sum to exactly 1: a lone proof (r = 1). */
  negAlphaBeta: GT;
  beta: G2;
  gamma: G2;
  delta: G2;
}

interface Parsed {
  claim: Groth16Claim;
  a: G1;
  b: G2;
  c: G1;
  signals: bigint[];
}

/**
 * Groth16 verification on BN254 for many proofs at once, by a random linear combination: with
 * independent random 64-bit r_i, all of
 *   e(A_i, B_i) = e(α, β) · e(L_i, γ) · e(C_i, δ)
 * hold (except with probability at most 2^-64 for a batch that contains a false one) if
 *   ∏ e(r_i·A_i, B_i) · e(−(Σr_i)·α, β) · e(−Σ r_i·L_i, γ) · e(−Σ r_i·C_i, δ) = 1,
 * which costs one shared Miller loop over n + 3 pairs (per key) and one final exponentiation
 * instead of 4n and n, Σ r_i·L_i = (Σr_i)·IC₀ + Σ_j (Σ_i r_i·x_ij)·IC_j one multi-scalar
 * multiplication, and Σ r_i·C_i another. A failed batch is split in halves until the false proofs
 * are found, so each proof gets exactly the verdict it would get alone. Soundness argument:
 * docs/decisions/008-batched-groth16-verification.md; the curve arithmetic: decision 024 (mcl's
 * WebAssembly, about twice ffjavascript's speed for a Miller loop).
 */
export class BatchVerifier {
  private readonly prepared = new Map<string, PreparedKey>();

  private constructor(private readonly keyFor: (key: string) => VerificationKey) {}

  /** A verifier for this thread, once the curve's WebAssembly is loaded. */
  static async create(keyFor: (key: string) => VerificationKey): Promise<BatchVerifier> {
    await loadBn254();
    return new BatchVerifier(keyFor);
  }

  verify(claims: Groth16Claim[]): boolean[] {
    const verdicts = claims.map(() => false);
    const parsed: Array<{ index: number; parsed: Parsed }> = [];
    claims.forEach((claim, index) => {
      const p = this.parse(claim);
      if (p) parsed.push({ index, parsed: p });
    });
    this.settle(parsed, verdicts);
    return verdicts;
  }

  private settle(group: Array<{ index: number; parsed: Parsed }>, verdicts: boolean[]) {
    if (group.length === 0) return;
    if (this.holds(group.map((g) => g.parsed))) {
      for (const { index } of group) verdicts[index] = true;
      return;
    }
    if (group.length === 1) return;
    const half = Math.ceil(group.length / 2);
    this.settle(group.slice(0, half), verdicts);
    this.settle(group.slice(half), verdicts);
  }

  /** Checks the combined equation for these proofs (one proof: r = 1, the plain Groth16 check). */
  private holds(proofs: Parsed[]): boolean {
    const r = proofs.length === 1 ? [1n] : randomScalars(proofs.length);
    const ps: G1[] = [];
    const qs: G2[] = [];
    const byKey = new Map<string, { sumR: bigint; sums: bigint[]; cs: G1[]; rs: bigint[] }>();

    proofs.forEach((proof, i) => {
      const ri = r[i]!;
      ps.push(ri === 1n ? proof.a : mcl.mul(proof.a, fr(ri)));
      qs.push(proof.b);
      const group = byKey.get(proof.claim.key) ?? { sumR: 0n, sums: proof.signals.map(() => 0n), cs: [], rs: [] };
      group.sumR = (group.sumR + ri) % SCALAR_FIELD_MODULUS;
      proof.signals.forEach((x, j) => (group.sums[j] = (group.sums[j]! + ri * x) % SCALAR_FIELD_MODULUS));
      group.cs.push(proof.c);
      group.rs.push(ri);
      byKey.set(proof.claim.key, group);
    });

    // Per key: e(−Σr·α, β) · e(−Σ r·L, γ) · e(−Σ r·C, δ). When Σr is exactly 1 (a lone proof), the
    // first factor's Miller loop is the key's, computed once: the product, and so the verdict, is
    // the same, for one pair fewer in the loop (docs/benchmarks.md, "Lone proof"; decision 067).
    const fixed: GT[] = [];
    for (const [name, group] of byKey) {
      const key = this.key(name);
      const l = mcl.mulVec(key.ic, [group.sumR, ...group.sums].map(fr));
      if (group.sumR === 1n) fixed.push(key.negAlphaBeta);
      else {
        ps.push(mcl.mul(key.negAlpha, fr(group.sumR)));
        qs.push(key.beta);
      }
      ps.push(mcl.neg(l));
      qs.push(key.gamma);
      ps.push(mcl.neg(group.cs.length === 1 && group.rs[0] === 1n ? group.cs[0]! : mcl.mulVec(group.cs, group.rs.map(fr))));
      qs.push(key.delta);
    }
    return mcl.finalExp(fixed.reduce((product, f) => mcl.mul(product, f), millerLoopVec(ps, qs))).isOne();
  }

  /**
   * Decodes and checks one claim: every signal below r, every coordinate below q (one encoding per
   * point), A and C on the curve, B on the twist and in G2 (the r-torsion: the twist has a cofactor,
   * and a point outside G2 would break the bilinearity the random combination relies on).
   */
  private parse(claim: Groth16Claim): Parsed | undefined {
    try {
      const key = this.key(claim.key);
      const signals = claim.publicSignals.map(BigInt);
      if (signals.length !== key.ic.length - 1 || signals.some((s) => s < 0n || s >= SCALAR_FIELD_MODULUS)) return undefined;
      const a = affineG1(claim.proof.pi_a);
      const b = affineG2(claim.proof.pi_b);
      const c = affineG1(claim.proof.pi_c);
      if (!a || !b || !c || !a.isValid() || !c.isValid() || !b.isValid() || !isInG2(b)) return undefined;
      return { claim, a, b, c, signals };
    } catch {
      return undefined;
    }
  }

  private key(name: string): PreparedKey {
    let key = this.prepared.get(name);
    if (!key) {
      const vk = this.keyFor(name);
      const point = (p: string[]) => affineG1(p) ?? fail('verification key: bad G1 point');
      const twist = (p: string[][]) => affineG2(p) ?? fail('verification key: bad G2 point');
      const negAlpha = mcl.neg(point(vk.vk_alpha_1));
      const beta = twist(vk.vk_beta_2);
      key = {
        ic: vk.IC.map(point),
        negAlpha,
        negAlphaBeta: millerLoopVec([negAlpha], [beta]),
        beta,
        gamma: twist(vk.vk_gamma_2),
        delta: twist(vk.vk_delta_2),
      };
      this.prepared.set(name, key);
    }
    return key;
  }
}

/**
 * An affine point as snarkjs writes it, [x, y] (Semaphore's unpacking) or [x, y, 1] (a key), or
 * undefined: any other z (the point at infinity, or a projective form) is refused rather than read
 * in a second way.
 */
function affineG1(p: string[]): G1 | undefined {
  if (!(p.length === 2 || (p.length === 3 && p[2] === '1'))) return undefined;
  const [x, y] = p.map(BigInt) as [bigint, bigint];
  return x < BASE_FIELD_MODULUS && y < BASE_FIELD_MODULUS && x >= 0n && y >= 0n ? g1(x, y) : undefined;
}

/** [[x0, x1], [y0, y1]] or [[x0, x1], [y0, y1], [1, 0]] (coordinates x0 + x1·u), or undefined. */
function affineG2(p: string[][]): G2 | undefined {
  const affine = p.length === 2 || (p.length === 3 && p[2]?.length === 2 && p[2][0] === '1' && p[2][1] === '0');
  if (!affine || p.slice(0, 2).some((c) => c.length !== 2)) return undefined;
  const [x0, x1, y0, y1] = p.slice(0, 2).flat().map(BigInt) as [bigint, bigint, bigint, bigint];
  if (![x0, x1, y0, y1].every((v) => v >= 0n && v < BASE_FIELD_MODULUS)) return undefined;
  return g2([x0, x1], [y0, y1]);
}

function fail(message: string): never {
  throw new TypeError(message);
}

/**
 * Uniformly random 64-bit scalars from the operating system's CSPRNG, never 0. 64 bits bound a false
 * proof's chance of passing inside a batch by 2^-64 per check, which an attacker can only try online,
 * one challenge and one counted guess at a time (decision 030; Ethereum's BLS batch verification
 * uses the same size); a 64-bit multiplier costs mcl a third of a 128-bit one.
 */
function randomScalars(count: number): bigint[] {
  const bytes = randomBytes(8 * count);
  return Array.from({ length: count }, (_, i) => {
    let value = bytes.readBigUInt64LE(8 * i);
    while (value === 0n) value = randomBytes(8).readBigUInt64LE(0);
    return value;
  });
}
