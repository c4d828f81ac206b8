import bn128 from 'wasmcurves/build/bn128_wasm.js';

/**
 * BN254's scalar field F_r (Baby Jubjub's base field) in WebAssembly: the `frm_*` functions of
 * wasmcurves' prebuilt bn128 module (iden3, GPL-3.0, the same bytes snarkjs and ffjavascript already
 * run in this server), Montgomery multiplication on eight 32-bit limbs, about five times faster than a
 * BigInt product reduced modulo r. Elements live in the module's memory, 32 bytes each, in Montgomery
 * form; a caller holds pointers. Nothing is built or fetched at run time: the module is compiled once
 * per thread from the package's base64 string.
 */
export interface WasmField {
  mul(a: number, b: number, r: number): void;
  square(a: number, r: number): void;
  add(a: number, b: number, r: number): void;
  sub(a: number, b: number, r: number): void;
  neg(a: number, r: number): void;
  copy(a: number, r: number): void;
  /** r = a⁻¹, and 0 for 0 (RFC 9380's inv0). */
  inverse(a: number, r: number): void;
  /** r = a square root of a square a; never returns for a non-square. */
  sqrt(a: number, r: number): void;
  /** 1 when a is a square or zero. */
  isSquare(a: number): number;
  isZero(a: number): number;
  /** A fresh element's pointer (never freed: a thread allocates its temporaries once). */
  alloc(): number;
  /** Stores x (0 ≤ x < r) in Montgomery form. */
  set(ptr: number, x: bigint): void;
  /** The canonical value at ptr. */
  get(ptr: number): bigint;
  /** The canonical value's least significant bit (RFC 9380's sgn0). */
  isOdd(ptr: number): number;
}

interface FrmExports {
  frm_mul(a: number, b: number, r: number): void;
  frm_square(a: number, r: number): void;
  frm_add(a: number, b: number, r: number): void;
  frm_sub(a: number, b: number, r: number): void;
  frm_neg(a: number, r: number): void;
  frm_copy(a: number, r: number): void;
  frm_inverse(a: number, r: number): void;
  frm_sqrt(a: number, r: number): void;
  frm_isSquare(a: number): number;
  frm_isZero(a: number): number;
  frm_toMontgomery(a: number, r: number): void;
  frm_fromMontgomery(a: number, r: number): void;
}

const ELEMENT_BYTES = 32;
let compiled: WebAssembly.Module | undefined;

/** A new instance of the field (one per thread is enough; it is not shared between threads). */
export function wasmBn254Field(): WasmField {
  compiled ??= new WebAssembly.Module(Buffer.from(bn128.code, 'base64'));
  // The module imports its memory: 25 pages hold its constants and scratch, the rest is ours.
  const memory = new WebAssembly.Memory({ initial: 32 });
  const exports = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as FrmExports;
  const words = new BigUint64Array(memory.buffer);
  const bytes = new Uint8Array(memory.buffer);
  // The module keeps its first free address at byte 0 (ffjavascript allocates from there too).
  let next = (new Uint32Array(memory.buffer)[0]! + 7) & ~7;
  const alloc = () => {
    const ptr = next;
    next += ELEMENT_BYTES;
    if (next > memory.buffer.byteLength) throw new RangeError('The WebAssembly field ran out of memory');
    return ptr;
  };
  const scratch = alloc();
  const read = (ptr: number) => {
    exports.frm_fromMontgomery(ptr, scratch);
    const at = scratch / 8;
    return words[at]! | (words[at + 1]! << 64n) | (words[at + 2]! << 128n) | (words[at + 3]! << 192n);
  };
  return {
    mul: exports.frm_mul,
    square: exports.frm_square,
    add: exports.frm_add,
    sub: exports.frm_sub,
    neg: exports.frm_neg,
    copy: exports.frm_copy,
    inverse: exports.frm_inverse,
    sqrt: exports.frm_sqrt,
    isSquare: exports.frm_isSquare,
    isZero: exports.frm_isZero,
    alloc,
    set(ptr, x) {
      const at = ptr / 8;
      words[at] = BigInt.asUintN(64, x);
      words[at + 1] = BigInt.asUintN(64, x >> 64n);
      words[at + 2] = BigInt.asUintN(64, x >> 128n);
      words[at + 3] = x >> 192n;
      exports.frm_toMontgomery(ptr, ptr);
    },
    get: read,
    isOdd(ptr) {
      exports.frm_fromMontgomery(ptr, scratch);
      return bytes[scratch]! & 1;
    },
  };
}
