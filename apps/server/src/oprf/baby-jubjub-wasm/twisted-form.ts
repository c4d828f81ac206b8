import { SNARK_SCALAR_FIELD } from '@zeroid/protocol';

// Baby Jubjub's constants for its a = −1 form, which the WebAssembly module computes on
// (build-baby-jubjub-wasm.ts): the curve's d′, and √(−a), which maps points in and out of that form.

const FIELD = SNARK_SCALAR_FIELD;
const modPow = (base: bigint, exponent: bigint): bigint => {
  let result = 1n;
  for (let b = base % FIELD, e = exponent; e > 0n; e >>= 1n, b = (b * b) % FIELD) if (e & 1n) result = (result * b) % FIELD;
  return result;
};
/** Baby Jubjub (EIP-2494): a·x² + y² = 1 + d·x²y². */
const A = 168700n;
const D = 168696n;
/**
 * The same curve in the a = −1 form, −x′² + y² = 1 + d′·x′²y² with x′ = √(−a)·x and d′ = −d/a: y is
 * unchanged, and the doubling and addition formulas lose their product by a (Hisil–Wong–Carter–Dawson
 * §3). −a is a square (a and −1 are, FIELD ≡ 1 mod 4) and d′ is not (d is not), so the formulas stay
 * complete. `SQRT_MINUS_A` is either root; `wasm-baby-jubjub.ts` maps G and H₁ in and s·G's x out.
 */
const D_PRIME = (((FIELD - D) % FIELD) * modPow(A, FIELD - 2n)) % FIELD;
export const TWICE_D_PRIME = (2n * D_PRIME) % FIELD;
export const SQRT_MINUS_A = sqrtOf(FIELD - A);
export const SQRT_MINUS_A_INVERSE = modPow(SQRT_MINUS_A, FIELD - 2n);

/** A square root modulo FIELD by Tonelli–Shanks (2-adicity 28), for the constant above only. */
function sqrtOf(n: bigint): bigint {
  let q = FIELD - 1n;
  let s = 0n;
  while ((q & 1n) === 0n) {
    q >>= 1n;
    s++;
  }
  let z = 2n;
  while (modPow(z, (FIELD - 1n) / 2n) !== FIELD - 1n) z++;
  let [m, c, t, root] = [s, modPow(z, q), modPow(n, q), modPow(n, (q + 1n) / 2n)];
  while (t !== 1n) {
    let i = 0n;
    for (let t2 = t; t2 !== 1n; t2 = (t2 * t2) % FIELD) i++;
    const b = modPow(c, 1n << (m - i - 1n));
    [m, c, t, root] = [i, (b * b) % FIELD, (t * b * b) % FIELD, (root * b) % FIELD];
  }
  if ((root * root) % FIELD !== n) throw new Error('−a has no square root modulo FIELD');
  return root;
}
