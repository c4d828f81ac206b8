import type { AffinePoint, BabyJubjubArithmetic } from '@zeroid/protocol/v3';
import { G, asciiField } from '@zeroid/protocol/v3';
import { bn254 } from '@taceo/poseidon2';
import { wasmBn254Field, type WasmField } from './wasm-bn254-field.ts';

/** Baby Jubjub's a and d (EIP-2494), and the Montgomery form's J = A (B = 1), as @taceo/oprf-core has them. */
const A = 168700n;
const D = 168696n;
const J = 168698n;
/** Elligator 2's non-square Z (RFC 9380 §6.7.1), and TACEO's hash_to_field separator. */
const Z = 5n;
const HASH_TO_FIELD_DS = asciiField('OPRF_HashToField_BabyJubJub');
/** A scalar below ℓ < 2²⁵¹ read in 64 windows of 4 bits. */
const WINDOWS = 64;

/** A point in extended twisted Edwards coordinates (X : Y : Z : T), x = X/Z, y = Y/Z, T = XY/Z: four field pointers. */
interface Extended {
  x: number;
  y: number;
  z: number;
  t: number;
}

/**
 * Protocol v3's two costly curve operations on the WebAssembly field (`wasmBn254Field`), for the
 * server's derivation threads, as v2's ristretto255 runs on libsodium: the same outputs as the
 * protocol's noble code, bit for bit (`wasm-baby-jubjub.test.ts`), about N times faster.
 *
 * - H₁ is TACEO's encode_to_curve step by step (hash_to_field by Poseidon2, Elligator 2 with the
 *   same root choice by sgn0, the rational map to Edwards, ×8); the point is kept projective, which
 *   saves the rational map's inversion. Its y coordinate is the same number.
 * - k·P is a fixed 4-bit window over the whole scalar, with the complete addition law of
 *   Hisil–Wong–Carter–Dawson (a·x² + y² = 1 + d·x²y², a square and d not, so no exceptions): 252
 *   doublings and 64 additions whatever the key, the identity added for a zero window. The server's
 *   key thus sets no branch and no count of operations (decision 063 on what it does not hide).
 */
export function wasmBabyJubjub(field: WasmField = wasmBn254Field()): BabyJubjubArithmetic {
  const f = field;
  const constant = (value: bigint) => {
    const ptr = f.alloc();
    f.set(ptr, value);
    return ptr;
  };
  const one = constant(1n);
  const a = constant(A);
  const d = constant(D);
  const j = constant(J);
  const z = constant(Z);
  const point = (): Extended => ({ x: f.alloc(), y: f.alloc(), z: f.alloc(), t: f.alloc() });
  const [t0, t1, t2, t3, t4, t5, t6, t7] = Array.from({ length: 8 }, () => f.alloc()) as [number, number, number, number, number, number, number, number];

  const setIdentity = (p: Extended) => {
    f.set(p.x, 0n);
    f.copy(one, p.y);
    f.copy(one, p.z);
    f.set(p.t, 0n);
  };
  const copyPoint = (p: Extended, r: Extended) => {
    f.copy(p.x, r.x);
    f.copy(p.y, r.y);
    f.copy(p.z, r.z);
    f.copy(p.t, r.t);
  };

  /** r = p + q ("add-2008-hwcd", complete for Baby Jubjub); r may be p or q. */
  const add = (p: Extended, q: Extended, r: Extended) => {
    f.mul(p.x, q.x, t0); // A
    f.mul(p.y, q.y, t1); // B
    f.mul(p.t, q.t, t2);
    f.mul(t2, d, t2); // C = d·T1·T2
    f.mul(p.z, q.z, t3); // D
    f.add(p.x, p.y, t4);
    f.add(q.x, q.y, t5);
    f.mul(t4, t5, t4);
    f.sub(t4, t0, t4);
    f.sub(t4, t1, t4); // E
    f.sub(t3, t2, t5); // F = D − C
    f.add(t3, t2, t6); // G = D + C
    f.mul(t0, a, t0);
    f.sub(t1, t0, t7); // H = B − a·A
    f.mul(t4, t5, r.x);
    f.mul(t6, t7, r.y);
    f.mul(t4, t7, r.t);
    f.mul(t5, t6, r.z);
  };

  /** r = 2p ("dbl-2008-hwcd"); r may be p. */
  const double = (p: Extended, r: Extended) => {
    f.square(p.x, t0); // A
    f.square(p.y, t1); // B
    f.square(p.z, t2);
    f.add(t2, t2, t2); // C = 2Z²
    f.mul(t0, a, t3); // D = a·A
    f.add(p.x, p.y, t4);
    f.square(t4, t4);
    f.sub(t4, t0, t4);
    f.sub(t4, t1, t4); // E = (X + Y)² − A − B
    f.add(t3, t1, t5); // G = D + B
    f.sub(t5, t2, t6); // F = G − C
    f.sub(t3, t1, t7); // H = D − B
    f.mul(t4, t6, r.x);
    f.mul(t5, t7, r.y);
    f.mul(t4, t7, r.t);
    f.mul(t6, t5, r.z);
  };

  const table = Array.from({ length: 16 }, point);
  const acc = point();
  const digitsOf = (scalar: bigint) => {
    const hex = scalar.toString(16).padStart(WINDOWS, '0');
    if (hex.length !== WINDOWS) throw new RangeError('A Baby Jubjub scalar is below 2²⁵⁶');
    return Array.from(hex, (digit) => Number.parseInt(digit, 16));
  };
  /** acc = scalar·p, by the fixed window: table[i] = i·p, then four doublings and one addition per window. */
  const multiply = (p: Extended, scalar: bigint) => {
    setIdentity(table[0]!);
    copyPoint(p, table[1]!);
    for (let i = 2; i < 16; i++) add(table[i - 1]!, p, table[i]!);
    const digits = digitsOf(scalar);
    copyPoint(table[digits[0]!]!, acc);
    for (let w = 1; w < WINDOWS; w++) {
      double(acc, acc);
      double(acc, acc);
      double(acc, acc);
      double(acc, acc);
      add(acc, table[digits[w]!]!, acc);
    }
  };
  const affineY = (p: Extended) => {
    f.inverse(p.z, t0);
    f.mul(p.y, t0, t0);
    return f.get(t0);
  };

  // H₁, step by step as @taceo/oprf-core's encodeToCurve, into `query8` (projective).
  const u = f.alloc();
  const [x1, gx1, x2, gx2, s, y] = Array.from({ length: 6 }, () => f.alloc()) as [number, number, number, number, number, number];
  const query8 = point();
  const queryPoint = (query: bigint) => {
    f.set(u, bn254.t3.permutation([HASH_TO_FIELD_DS, query, 0n])[1]!);
    // Elligator 2 (RFC 9380 §6.7.1 with TACEO's sgn0 rule): tv1 = Z·u², 0 when tv1 = −1.
    f.square(u, t1);
    f.mul(t1, z, t1);
    f.add(t1, one, x1);
    if (f.isZero(x1)) {
      f.set(t1, 0n);
      f.copy(one, x1);
    }
    f.inverse(x1, x1);
    f.mul(x1, j, x1);
    f.neg(x1, x1); // x1 = −J / (1 + tv1)
    f.add(x1, j, gx1);
    f.square(x1, t2);
    f.mul(gx1, t2, gx1);
    f.add(gx1, x1, gx1); // gx1 = x1³ + J·x1² + x1
    f.add(x1, j, x2);
    f.neg(x2, x2); // x2 = −x1 − J
    f.mul(t1, gx1, gx2); // gx2 = tv1·gx1
    const e2 = f.isSquare(gx1);
    f.copy(e2 ? x1 : x2, s);
    f.sqrt(e2 ? gx1 : gx2, y);
    // TACEO negates the root when sgn0(y) differs from e2, so any root gives the same point.
    if (!f.isZero(y) && f.isOdd(y) !== e2) f.neg(y, y);
    // The rational map to Edwards, projective: (s(s + 1) : (s − 1)·t : (s + 1)·t : s(s − 1)), t = y;
    // TACEO's inv0 makes it the identity when (s + 1)·t = 0.
    f.add(s, one, t2);
    f.sub(s, one, t3);
    f.mul(t2, y, query8.z);
    if (f.isZero(query8.z)) setIdentity(query8);
    else {
      f.mul(s, t2, query8.x);
      f.mul(t3, y, query8.y);
      f.mul(s, t3, query8.t);
    }
    double(query8, query8);
    double(query8, query8);
    double(query8, query8);
  };

  // G's table is rebuilt per call (16 points, about 4 % of the multiplication): one code path for both.
  const base = point();
  const generator = G.toAffine();
  f.set(base.x, generator.x);
  f.set(base.y, generator.y);
  f.copy(one, base.z);
  f.mul(base.x, base.y, base.t);

  return {
    keyTimesQueryPointY(query, key) {
      queryPoint(query);
      multiply(query8, key);
      return affineY(acc);
    },
    baseTimes(scalar): AffinePoint {
      multiply(base, scalar);
      f.inverse(acc.z, t0);
      f.mul(acc.x, t0, t1);
      f.mul(acc.y, t0, t2);
      return { x: f.get(t1), y: f.get(t2) };
    },
  };
}

let threadInstance: BabyJubjubArithmetic | undefined;
const instance = () => (threadInstance ??= wasmBabyJubjub());

/**
 * This thread's WebAssembly Baby Jubjub, instantiated on first use (each derivation thread has its own
 * memory; the calls are synchronous, so one instance's scratch space is never shared mid-call).
 */
export const threadBabyJubjub: BabyJubjubArithmetic = {
  keyTimesQueryPointY: (query, key) => instance().keyTimesQueryPointY(query, key),
  baseTimes: (scalar) => instance().baseTimes(scalar),
};
