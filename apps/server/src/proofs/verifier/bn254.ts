import * as mclModule from 'mcl-wasm';
import * as mclInternalsModule from 'mcl-wasm/dist/mcl.js';

// mcl-wasm is CommonJS whose internals are assigned by `init`. Node's ESM view of a CommonJS module
// is a snapshot (its `default` is the live `module.exports`); tsx's and esbuild's views are live.
const live = <T>(namespace: T): T => (namespace as { default?: T }).default ?? namespace;
const mcl = live(mclModule);
const mclInternals = live(mclInternalsModule);

export type G1 = mclModule.G1;
export type G2 = mclModule.G2;
export type GT = mclModule.GT;
export type Fr = mclModule.Fr;
export { mcl };

/** BN254's base field modulus q: every coordinate must be below it (one encoding per point). */
export const BASE_FIELD_MODULUS = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
/** BN254's scalar field modulus r: the order of G1 and G2; every public signal must be below it. */
export const SCALAR_FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

let ready: Promise<void> | undefined;

/**
 * Loads mcl's WebAssembly (embedded in its JavaScript, so a bundle needs no file beside it) for
 * BN254, the curve Ethereum and snarkjs call alt_bn128 (mcl's BN_SNARK1), once per thread. Order
 * checks on decoding are off: the verifier checks G2 membership itself, where it can say why.
 */
export function loadBn254(): Promise<void> {
  ready ??= mcl.init(mcl.BN_SNARK1).then(() => {
    mcl.verifyOrderG1(false);
    mcl.verifyOrderG2(false);
  });
  return ready;
}

/** A scalar (0 ≤ value < r) as mcl's Fr. */
export function fr(value: bigint): Fr {
  const scalar = new mcl.Fr();
  scalar.setStr(value.toString(), 10);
  return scalar;
}

/** An affine point (x, y) as G1; throws if it is not on the curve. */
export function g1(x: bigint, y: bigint): G1 {
  const point = new mcl.G1();
  point.setStr(`1 ${x} ${y}`, 10);
  return point;
}

/** An affine point ((x0 + x1·u), (y0 + y1·u)) on the twist as G2; throws if it is not on the twist. */
export function g2(x: [bigint, bigint], y: [bigint, bigint]): G2 {
  const point = new mcl.G2();
  point.setStr(`1 ${x[0]} ${x[1]} ${y[0]} ${y[1]}`, 10);
  return point;
}

/** The values of mcl's objects live in JavaScript arrays, copied into the WebAssembly stack per call. */
const words = (value: G1 | G2 | GT) => (value as unknown as { a_: Uint32Array }).a_;

/** The C functions of mcl's WebAssembly that mcl-wasm does not wrap, or that we call on its stack without copies. */
interface WasmExports {
  HEAP8: Int8Array;
  /** `mclBn_millerLoopVec(GT *e, const G1 *x, const G2 *y, size_t n)` */
  _mclBn_millerLoopVec(e: number, p: number, q: number, n: number): void;
  _mclBnFp_neg(y: number, x: number): void;
  _mclBnFp2_mul(z: number, x: number, y: number): void;
  _mclBnG2_add(z: number, x: number, y: number): void;
  _mclBnG2_dbl(y: number, x: number): void;
  _mclBnG2_isEqual(x: number, y: number): number;
}

/** mcl's WebAssembly: its stack (allocations last until `stackRestore`) and its exported C functions. */
export function mclWasm() {
  return { internals: mclInternals, mod: (mclInternals as unknown as { mod: WasmExports }).mod };
}
const wasmExports = () => mclWasm().mod;

/** Pairs one Miller loop handles at once: bounds what goes on the WebAssembly stack (about 430 bytes a pair). */
const MILLER_CHUNK = 16;

/**
 * ∏ f(P_i, Q_i), the product of the Miller loops of the pairs, before the final exponentiation:
 * mcl's `millerLoopVec` (not wrapped by mcl-wasm's JavaScript) shares the squarings of the loop
 * between the pairs, so each pair after the first costs well under a Miller loop of its own.
 */
export function millerLoopVec(ps: G1[], qs: G2[]): GT {
  let product: GT | undefined;
  for (let start = 0; start < ps.length; start += MILLER_CHUNK) {
    const chunk = Math.min(MILLER_CHUNK, ps.length - start);
    const e = new mcl.GT();
    const stack = mclInternals.stackSave();
    try {
      const ePos = mclInternals.salloc(words(e));
      const pPos = mclInternals.sallocArray(ps.slice(start, start + chunk).map(words));
      const qPos = mclInternals.sallocArray(qs.slice(start, start + chunk).map(words));
      wasmExports()._mclBn_millerLoopVec(ePos, pPos, qPos, chunk);
      mclInternals.copyFromHeap32(words(e), ePos);
    } finally {
      mclInternals.stackRestore(stack);
    }
    product = product ? mcl.mul(product, e) : e;
  }
  if (!product) throw new RangeError('no pairs');
  return product;
}
