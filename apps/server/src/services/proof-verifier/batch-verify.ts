import { randomBytes } from 'node:crypto';
import type { Bn128 } from 'ffjavascript';

/** A Groth16 verification key as snarkjs writes it (Semaphore's `semaphore-<depth>.json`). */
export interface VerificationKey {
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  IC: string[][];
}

/** One proof to check: snarkjs' unpacked points and the public signals, in decimal. */
export interface Groth16Claim {
  depth: number;
  publicSignals: string[];
  proof: { pi_a: string[]; pi_b: string[][]; pi_c: string[] };
}

/** What does not depend on the proof, computed once per key. */
interface PreparedKey {
  ic: Uint8Array[];
  negAlpha: Uint8Array;
  betaPrepared: Uint8Array;
  gammaPrepared: Uint8Array;
  deltaPrepared: Uint8Array;
}

interface Parsed {
  claim: Groth16Claim;
  a: Uint8Array;
  b: Uint8Array;
  c: Uint8Array;
  signals: bigint[];
}

/**
 * Groth16 verification on BN254 for many proofs at once, by a random linear combination: with
 * independent random 128-bit r_i, all of
 *   e(A_i, B_i) = e(α, β) · e(L_i, γ) · e(C_i, δ)
 * hold (except with probability about n / 2^128 for a batch that contains a false one) if
 *   ∏ e(r_i·A_i, B_i) · e(−(Σr_i)·α, β) · e(−Σ r_i·L_i, γ) · e(−Σ r_i·C_i, δ) = 1,
 * which costs n + 3 Miller loops (per key) and one final exponentiation instead of 4n and n, and
 * Σ r_i·L_i = (Σr_i)·IC₀ + Σ_j (Σ_i r_i·x_ij)·IC_j only nPublic + 1 scalar multiplications.
 * A failed batch is split in halves until the false proofs are found, so each proof gets exactly
 * the verdict it would get alone. Soundness argument: docs/decisions/008-batched-groth16-verification.md.
 */
export class BatchVerifier {
  private readonly prepared = new Map<number, PreparedKey>();

  constructor(
    private readonly curve: Bn128,
    private readonly keyFor: (depth: number) => VerificationKey,
  ) {}

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
    const { curve } = this;
    const { G1, r: order } = { G1: curve.G1, r: curve.r };
    const r = proofs.length === 1 ? [1n] : proofs.map(() => randomScalar());
    const times = (point: Uint8Array, scalar: bigint) => (scalar === 1n ? point : G1.timesScalar(point, scalar));
    const miller = (g1: Uint8Array, preparedG2: Uint8Array) => curve.millerLoop(curve.prepareG1(G1.toJacobian(g1)), preparedG2);
    let product = curve.Gt.one;
    const byDepth = new Map<number, { sumR: bigint; sums: bigint[]; c: Uint8Array | undefined }>();

    proofs.forEach((proof, i) => {
      const ri = r[i]!;
      product = curve.Gt.mul(product, miller(times(proof.a, ri), curve.prepareG2(curve.G2.toJacobian(proof.b))));
      const group = byDepth.get(proof.claim.depth) ?? { sumR: 0n, sums: proof.signals.map(() => 0n), c: undefined };
      group.sumR = (group.sumR + ri) % order;
      proof.signals.forEach((x, j) => (group.sums[j] = (group.sums[j]! + ri * x) % order));
      const rc = times(proof.c, ri);
      group.c = group.c ? G1.add(group.c, rc) : rc;
      byDepth.set(proof.claim.depth, group);
    });

    // Per key: e(−Σr·α, β) · e(−Σ r·L, γ) · e(−Σ r·C, δ).
    for (const [depth, group] of byDepth) {
      const key = this.key(depth);
      let l = times(key.ic[0]!, group.sumR);
      group.sums.forEach((s, j) => (l = G1.add(l, G1.timesScalar(key.ic[j + 1]!, s))));
      product = curve.Gt.mul(product, miller(times(key.negAlpha, group.sumR), key.betaPrepared));
      product = curve.Gt.mul(product, miller(G1.neg(l), key.gammaPrepared));
      product = curve.Gt.mul(product, miller(G1.neg(group.c!), key.deltaPrepared));
    }
    return curve.Gt.eq(curve.finalExponentiation(product), curve.Gt.one);
  }

  /** Decodes and checks one claim as snarkjs does (signals below r, points on their curves), and B in G2. */
  private parse(claim: Groth16Claim): Parsed | undefined {
    const { curve } = this;
    try {
      const key = this.key(claim.depth);
      const signals = claim.publicSignals.map((s) => BigInt(s));
      if (signals.length !== key.ic.length - 1 || signals.some((s) => s < 0n || s >= curve.r)) return undefined;
      const a = curve.G1.fromObject(claim.proof.pi_a.map(BigInt));
      const b = curve.G2.fromObject(claim.proof.pi_b.map((c) => c.map(BigInt)));
      const c = curve.G1.fromObject(claim.proof.pi_c.map(BigInt));
      if (!curve.G1.isValid(a) || !curve.G2.isValid(b) || !curve.G1.isValid(c)) return undefined;
      // G2 has a cofactor: a point on the twist outside the r-torsion would break the pairing's
      // bilinearity that the random combination relies on.
      if (!curve.G2.isZero(curve.G2.timesScalar(b, curve.r))) return undefined;
      return { claim, a, b, c, signals };
    } catch {
      return undefined;
    }
  }

  private key(depth: number): PreparedKey {
    let key = this.prepared.get(depth);
    if (!key) {
      const { curve } = this;
      const vk = this.keyFor(depth);
      const g2 = (p: string[][]) => curve.G2.toJacobian(curve.G2.fromObject(p.map((c) => c.map(BigInt))));
      key = {
        ic: vk.IC.map((p) => curve.G1.fromObject(p.map(BigInt))),
        negAlpha: curve.G1.neg(curve.G1.fromObject(vk.vk_alpha_1.map(BigInt))),
        betaPrepared: curve.prepareG2(g2(vk.vk_beta_2)),
        gammaPrepared: curve.prepareG2(g2(vk.vk_gamma_2)),
        deltaPrepared: curve.prepareG2(g2(vk.vk_delta_2)),
      };
      this.prepared.set(depth, key);
    }
    return key;
  }
}

/** A uniformly random 128-bit scalar from the operating system's CSPRNG, never 0. */
function randomScalar(): bigint {
  for (;;) {
    const value = BigInt(`0x${randomBytes(16).toString('hex')}`);
    if (value !== 0n) return value;
  }
}
