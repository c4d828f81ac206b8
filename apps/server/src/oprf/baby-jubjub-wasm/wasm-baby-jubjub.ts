import type { AffinePoint, V3Arithmetic } from '@zeroid/protocol/v3';
import { G, asciiField } from '@zeroid/protocol/v3';
import { ELEMENT, MEMORY_PAGES, POINT, WINDOWS, buildBabyJubjubWasm } from './build-baby-jubjub-wasm.ts';
import { SQRT_MINUS_A, SQRT_MINUS_A_INVERSE } from './twisted-form.ts';
import { POSEIDON2_T3_EXTERNAL, POSEIDON2_T3_INTERNAL, POSEIDON_T3_C, POSEIDON_T3_M } from './poseidon-t3-constants.ts';

/** Elligator 2 on Baby Jubjub's Montgomery form (B = 1, J = A = 168698) with Z = 5, and TACEO's hash_to_field separator. */
const J = 168698n;
const Z = 5n;
const HASH_TO_FIELD_DS = asciiField('OPRF_HashToField_BabyJubJub');

interface Exports {
  bjj_double(p: number, r: number): void;
  bjj_add(p: number, q: number, r: number): void;
  bjj_mul_window(table: number, digits: number, r: number): void;
  bjj_mul_fixed(tables: number, digits: number, r: number): void;
  poseidon_t3(state: number, c: number, m: number): void;
  poseidon2_t3(state: number, external: number, internal: number): void;
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

let compiled: { module: WebAssembly.Module; free: number } | undefined;

/**
 * Protocol v3's arithmetic on WebAssembly (`buildBabyJubjubWasm`), for the server's derivation
 * threads, as v2's ristretto255 runs on libsodium: the same numbers as `jsV3Arithmetic`, bit for bit
 * (wasm-baby-jubjub.test.ts), several times faster (decision 063).
 *
 * - H₁ is TACEO's encode_to_curve step by step: hash_to_field by Poseidon2, Elligator 2 with the root
 *   fixed by sgn0 as TACEO fixes it, the rational map to Edwards kept projective (which spares its
 *   inversion: the point, hence its affine y, is the same), then three doublings.
 * - k·P is a fixed 4-bit window over the whole scalar with the complete addition law: 252 doublings
 *   and 64 additions whatever the key, the identity added for a zero digit, so the key sets no branch
 *   and no count of operations (decision 063 says what it does not hide).
 * - s·G adds one precomputed multiple of G per digit (`bjj_mul_fixed`), the same fixed sequence.
 */
export function wasmV3Arithmetic(): V3Arithmetic {
  if (!compiled) {
    const { bytes, free } = buildBabyJubjubWasm();
    compiled = { module: new WebAssembly.Module(bytes), free };
  }
  const memory = new WebAssembly.Memory({ initial: MEMORY_PAGES });
  const w = new WebAssembly.Instance(compiled.module, { env: { memory } }).exports as unknown as Exports;
  const words = new BigUint64Array(memory.buffer);
  const bytes = new Uint8Array(memory.buffer);
  let next = (compiled.free + 7) & ~7;
  const alloc = (size: number) => {
    const ptr = next;
    next += size;
    if (next > memory.buffer.byteLength) throw new RangeError('The WebAssembly arithmetic ran out of memory');
    return ptr;
  };
  const element = () => alloc(ELEMENT);
  const scratch = element();
  /** Stores x (0 ≤ x < r) at ptr, in Montgomery form. */
  const set = (ptr: number, x: bigint) => {
    const at = ptr / 8;
    words[at] = BigInt.asUintN(64, x);
    words[at + 1] = BigInt.asUintN(64, x >> 64n);
    words[at + 2] = BigInt.asUintN(64, x >> 128n);
    words[at + 3] = x >> 192n;
    w.frm_toMontgomery(ptr, ptr);
  };
  const get = (ptr: number) => {
    w.frm_fromMontgomery(ptr, scratch);
    const at = scratch / 8;
    return words[at]! | (words[at + 1]! << 64n) | (words[at + 2]! << 128n) | (words[at + 3]! << 192n);
  };
  const constants = (values: readonly (bigint | string)[]) => {
    const ptr = alloc(values.length * ELEMENT);
    values.forEach((value, i) => set(ptr + i * ELEMENT, typeof value === 'bigint' ? value : BigInt(`0x${value}`)));
    return ptr;
  };
  const [one, zero, j, z, toAMinusOne, fromAMinusOne] = [1n, 0n, J, Z, SQRT_MINUS_A, SQRT_MINUS_A_INVERSE].map((value) =>
    constants([value]),
  ) as [number, number, number, number, number, number];
  const poseidonC = constants(POSEIDON_T3_C);
  const poseidonM = constants(POSEIDON_T3_M);
  const poseidon2External = constants(POSEIDON2_T3_EXTERNAL);
  const poseidon2Internal = constants(POSEIDON2_T3_INTERNAL);
  const state = alloc(3 * ELEMENT);

  const point = () => alloc(POINT);
  const coordinate = (p: number, k: number) => p + k * ELEMENT;
  const setIdentity = (p: number) => [zero, one, one, zero].forEach((value, k) => w.frm_copy(value, coordinate(p, k)));
  const tableFor = (p: number, table = alloc(16 * POINT)) => {
    setIdentity(table);
    for (let k = 0; k < 4; k++) w.frm_copy(coordinate(p, k), coordinate(table + POINT, k));
    for (let i = 2; i < 16; i++) w.bjj_add(table + (i - 1) * POINT, p, table + i * POINT);
    return table;
  };
  const digits = alloc(WINDOWS);
  const acc = point();
  /** The scalar's 64 hexadecimal digits into `digits`, most significant first. */
  const setDigits = (scalar: bigint) => {
    const hex = scalar.toString(16).padStart(WINDOWS, '0');
    if (hex.length !== WINDOWS) throw new RangeError('A Baby Jubjub scalar is below 2²⁵⁶');
    for (let i = 0; i < WINDOWS; i++) bytes[digits + i] = Number.parseInt(hex[i]!, 16);
  };
  const [t0, t1, t2, x1, gx1, x2, gx2, s, y] = [
    element(),
    element(),
    element(),
    element(),
    element(),
    element(),
    element(),
    element(),
    element(),
  ];
  const isOdd = (ptr: number) => {
    w.frm_fromMontgomery(ptr, scratch);
    return bytes[scratch]! & 1;
  };

  const poseidon2Word1 = (input: readonly [bigint, bigint, bigint]) => {
    input.forEach((value, k) => set(state + k * ELEMENT, value));
    w.poseidon2_t3(state, poseidon2External, poseidon2Internal);
    return state + ELEMENT;
  };

  // H₁(query), as @taceo/oprf-core's encodeToCurve, into `queryPoint` (projective).
  const queryPoint = point();
  const queryTable = alloc(16 * POINT);
  const hashToCurve = (query: bigint) => {
    const u = poseidon2Word1([HASH_TO_FIELD_DS, query, 0n]);
    w.frm_square(u, t1);
    w.frm_mul(t1, z, t1); // tv1 = Z·u², and 0 when tv1 = −1
    w.frm_add(t1, one, x1);
    if (w.frm_isZero(x1)) {
      w.frm_copy(zero, t1);
      w.frm_copy(one, x1);
    }
    w.frm_inverse(x1, x1);
    w.frm_mul(x1, j, x1);
    w.frm_neg(x1, x1); // x1 = −J / (1 + tv1)
    w.frm_add(x1, j, gx1);
    w.frm_square(x1, t2);
    w.frm_mul(gx1, t2, gx1);
    w.frm_add(gx1, x1, gx1); // gx1 = x1³ + J·x1² + x1
    w.frm_add(x1, j, x2);
    w.frm_neg(x2, x2); // x2 = −x1 − J
    w.frm_mul(t1, gx1, gx2); // gx2 = tv1·gx1
    const e2 = w.frm_isSquare(gx1);
    w.frm_copy(e2 ? x1 : x2, s);
    w.frm_sqrt(e2 ? gx1 : gx2, y);
    // TACEO negates the root when sgn0(y) differs from e2, so any root gives the same point.
    if (!w.frm_isZero(y) && isOdd(y) !== e2) w.frm_neg(y, y);
    // Montgomery (s, y) to Edwards (s/y, (s − 1)/(s + 1)) as (s(s + 1) : (s − 1)·y : (s + 1)·y : s(s − 1));
    // TACEO's inv0 gives the identity when (s + 1)·y = 0.
    w.frm_add(s, one, t1);
    w.frm_sub(s, one, t2);
    w.frm_mul(t1, y, coordinate(queryPoint, 2));
    if (w.frm_isZero(coordinate(queryPoint, 2))) setIdentity(queryPoint);
    else {
      w.frm_mul(s, t1, coordinate(queryPoint, 0));
      w.frm_mul(t2, y, coordinate(queryPoint, 1));
      w.frm_mul(s, t2, coordinate(queryPoint, 3));
      // Onto the a = −1 form the module computes on: x′ = √(−a)·x, so X and T scale, Y and Z do not.
      w.frm_mul(coordinate(queryPoint, 0), toAMinusOne, coordinate(queryPoint, 0));
      w.frm_mul(coordinate(queryPoint, 3), toAMinusOne, coordinate(queryPoint, 3));
    }
    for (let i = 0; i < 3; i++) w.bjj_double(queryPoint, queryPoint);
  };
  /** The affine point of p on Baby Jubjub itself: x = X/(Z·√(−a)), y = Y/Z. */
  const affine = (p: number) => {
    w.frm_inverse(coordinate(p, 2), t0);
    w.frm_mul(coordinate(p, 0), t0, t1);
    w.frm_mul(t1, fromAMinusOne, t1);
    w.frm_mul(coordinate(p, 1), t0, t2);
    return { x: get(t1), y: get(t2) };
  };
  const affineY = (p: number) => {
    w.frm_inverse(coordinate(p, 2), t0);
    w.frm_mul(coordinate(p, 1), t0, t2);
    return get(t2);
  };

  // G's tables for bjj_mul_fixed: the i-th (digit i, most significant first) holds j·16^(63 − i)·G.
  const multiple = point();
  const { x: gx, y: gy } = G.toAffine();
  set(coordinate(multiple, 0), gx);
  w.frm_mul(coordinate(multiple, 0), toAMinusOne, coordinate(multiple, 0));
  set(coordinate(multiple, 1), gy);
  w.frm_copy(one, coordinate(multiple, 2));
  w.frm_mul(coordinate(multiple, 0), coordinate(multiple, 1), coordinate(multiple, 3));
  const baseTables = alloc(WINDOWS * 16 * POINT);
  for (let i = WINDOWS - 1; i >= 0; i--) {
    tableFor(multiple, baseTables + i * 16 * POINT);
    for (let k = 0; k < 4; k++) w.bjj_double(multiple, multiple);
  }

  return {
    keyTimesQueryPointY(query, key) {
      hashToCurve(query);
      setDigits(key);
      w.bjj_mul_window(tableFor(queryPoint, queryTable), digits, acc);
      return affineY(acc);
    },
    baseTimes(scalar): AffinePoint {
      setDigits(scalar);
      w.bjj_mul_fixed(baseTables, digits, acc);
      return affine(acc);
    },
    poseidon(left, right) {
      [0n, left, right].forEach((value, k) => set(state + k * ELEMENT, value));
      w.poseidon_t3(state, poseidonC, poseidonM);
      return get(state);
    },
    poseidon2Word1: (input) => get(poseidon2Word1(input)),
  };
}

let threadInstance: V3Arithmetic | undefined;
const instance = () => (threadInstance ??= wasmV3Arithmetic());

/**
 * This thread's WebAssembly arithmetic, made on first use: each thread has its own memory, and every
 * call is synchronous, so one instance's scratch space is never shared mid-call.
 */
export const threadV3Arithmetic: V3Arithmetic = {
  keyTimesQueryPointY: (query, key) => instance().keyTimesQueryPointY(query, key),
  baseTimes: (scalar) => instance().baseTimes(scalar),
  poseidon: (left, right) => instance().poseidon(left, right),
  poseidon2Word1: (state) => instance().poseidon2Word1(state),
};
