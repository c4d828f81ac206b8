import { BASE_FIELD_MODULUS, mcl, mclWasm, type G2 } from './bn254.ts';

/** BN254's curve parameter x (the "seed": p and r are polynomials in it), 63 bits. */
const SEED = 4965661367192848881n;
/** Its bits after the leading one, most significant first: the steps of a left-to-right double-and-add. */
const SEED_STEPS = [...SEED.toString(2).slice(1)].map((bit) => bit === '1');

type Fp2Value = [bigint, bigint];

/** (a0 + a1·u)(b0 + b1·u) with u² = −1, in BigInt: only for the two constants below, once per thread. */
function fp2Mul([a0, a1]: Fp2Value, [b0, b1]: Fp2Value): Fp2Value {
  const p = BASE_FIELD_MODULUS;
  return [(((a0 * b0 - a1 * b1) % p) + p) % p, (a0 * b1 + a1 * b0) % p];
}

function fp2Pow(base: Fp2Value, exponent: bigint): Fp2Value {
  let result: Fp2Value = [1n, 0n];
  for (let bit = BigInt(exponent.toString(2).length - 1); bit >= 0n; bit--) {
    result = fp2Mul(result, result);
    if ((exponent >> bit) & 1n) result = fp2Mul(result, base);
  }
  return result;
}

interface Constants {
  /** ξ^((p−1)/3) and ξ^((p−1)/2), ξ = 9 + u: the twist's coefficients of ψ on x and y. */
  psiX: Uint32Array;
  psiY: Uint32Array;
  /** Byte sizes of Fp and of a G2 point in mcl's memory (Jacobian x, y, z, each in Fp2). */
  fpBytes: number;
  g2Bytes: number;
}

let constants: Constants | undefined;

function load(): Constants {
  if (constants) return constants;
  const asFp2 = ([a, b]: Fp2Value) => {
    const value = new mcl.Fp2();
    value.setStr(`${a} ${b}`, 10);
    return (value as unknown as { a_: Uint32Array }).a_;
  };
  const xi: Fp2Value = [9n, 1n];
  constants = {
    psiX: asFp2(fp2Pow(xi, (BASE_FIELD_MODULUS - 1n) / 3n)),
    psiY: asFp2(fp2Pow(xi, (BASE_FIELD_MODULUS - 1n) / 2n)),
    fpBytes: (new mcl.Fp() as unknown as { a_: Uint32Array }).a_.length * 4,
    g2Bytes: (new mcl.G2() as unknown as { a_: Uint32Array }).a_.length * 4,
  };
  return constants;
}

/**
 * Whether a point of the twist (already checked to be on it) is in G2, the subgroup of order r, by
 * the test of El Housni, Guillevic and Piellard ("Co-factor clearing and subgroup membership testing
 * on pairing-friendly curves", 2022, §5 for BN curves; gnark-crypto's `IsInSubGroup`):
 *
 *   Q ∈ G2  ⇔  [x+1]Q + ψ([x]Q) + ψ²([x]Q) = ψ³([2x]Q)
 *
 * where ψ is the untwist-Frobenius-twist endomorphism. It costs one multiplication by the 63-bit x
 * (generic double-and-add: mcl's own multiplication uses the GLV split, which is only right inside
 * G2) and a few Frobenius maps, instead of mcl's `isValidOrder`, a multiplication by the 254-bit r.
 * Everything runs on mcl's WebAssembly stack, with no copies between steps.
 */
export function isInG2(point: G2): boolean {
  const { psiX, psiY, fpBytes, g2Bytes } = load();
  const { internals, mod } = mclWasm();
  const stack = internals.stackSave();
  try {
    const q = internals.sallocCopy((point as unknown as { a_: Uint32Array }).a_);
    const cx = internals.sallocCopy(psiX);
    const cy = internals.sallocCopy(psiY);
    const alloc = () => internals.stackAlloc(g2Bytes);
    const copy = (to: number, from: number) => mod.HEAP8.copyWithin(to, from, from + g2Bytes);
    // ψ(x, y, z) = (conj(x)·ξ^((p−1)/3), conj(y)·ξ^((p−1)/2), conj(z)) in Jacobian coordinates.
    const psi = (at: number) => {
      const x = at;
      const y = at + 2 * fpBytes;
      const z = at + 4 * fpBytes;
      mod._mclBnFp_neg(x + fpBytes, x + fpBytes);
      mod._mclBnFp2_mul(x, x, cx);
      mod._mclBnFp_neg(y + fpBytes, y + fpBytes);
      mod._mclBnFp2_mul(y, y, cy);
      mod._mclBnFp_neg(z + fpBytes, z + fpBytes);
    };

    // xq = [x]Q, left to right.
    const xq = alloc();
    copy(xq, q);
    for (const add of SEED_STEPS) {
      mod._mclBnG2_dbl(xq, xq);
      if (add) mod._mclBnG2_add(xq, xq, q);
    }
    // left = [x+1]Q + ψ([x]Q) + ψ²([x]Q)
    const left = alloc();
    mod._mclBnG2_add(left, xq, q);
    const t = alloc();
    copy(t, xq);
    psi(t);
    mod._mclBnG2_add(left, left, t);
    psi(t);
    mod._mclBnG2_add(left, left, t);
    // right = ψ³([2x]Q)
    const right = alloc();
    mod._mclBnG2_dbl(right, xq);
    psi(right);
    psi(right);
    psi(right);
    return mod._mclBnG2_isEqual(left, right) === 1;
  } finally {
    internals.stackRestore(stack);
  }
}
