import { SNARK_SCALAR_FIELD } from '@zeroid/protocol';
import { ModuleBuilder, type CodeBuilder, type Code } from 'wasmbuilder';
import buildF1m from 'wasmcurves/src/build_f1m.js';
import { TWICE_D_PRIME } from './twisted-form.ts';

/** Bytes of one field element, and of one extended point (X, Y, Z, T). */
export const ELEMENT = 32;
export const POINT = 4 * ELEMENT;
/** Windows of 4 bits in a scalar below 2²⁵⁶, and the rounds of the two hashes (t = 3). */
export const WINDOWS = 64;
const POSEIDON_FULL = 8;
const POSEIDON_PARTIAL = 57;
const POSEIDON2_FULL = 8;
const POSEIDON2_PARTIAL = 56;
/** 2 MiB: the field's constants and scratch, our tables (G's: 128 KiB) and constants. */
export const MEMORY_PAGES = 32;

const montgomery = (x: bigint) => (x << 256n) % SNARK_SCALAR_FIELD;
const littleEndian = (x: bigint) => Array.from({ length: ELEMENT }, (_, i) => Number((x >> BigInt(8 * i)) & 0xffn));

/**
 * The WebAssembly module behind `wasmV3Arithmetic`, built in memory when a thread first needs it (once,
 * nothing fetched; its time is in docs/benchmarks.md, "Raw derivation"): wasmcurves' Montgomery field F_r (`frm_*`, the code of the bn128
 * module snarkjs runs) with wasmbuilder, and on it the loops that JavaScript would otherwise drive one
 * call per field operation:
 *
 * - `bjj_double` / `bjj_add`: Baby Jubjub in extended coordinates on its a = −1 form, "dbl-2008-hwcd"
 *   and "add-2008-hwcd-3" (Hisil, Wong, Carter, Dawson), complete since −1 is a square and d′ is not;
 * - `bjj_mul_window(table, digits, r)`: r = Σ digitᵢ·16ⁱ·P from table[j] = j·P, four doublings and one
 *   table addition per 4-bit digit, 64 digits whatever their values;
 * - `bjj_mul_fixed(tables, digits, r)`: the same for a point known in advance (G), from one table per
 *   digit position (tables[i][j] = j·16ⁱ·P, 128 KiB): 63 additions and no doubling;
 * - `poseidon_t3(state, C, M)`: circomlib's Poseidon permutation for two inputs (poseidon-lite's);
 * - `poseidon2_t3(state, external, internal)`: HorizenLabs' Poseidon2 permutation (@taceo/poseidon2's).
 *
 * Every output equals the JavaScript libraries' (wasm-baby-jubjub.test.ts).
 */
export function buildBabyJubjubWasm(): { bytes: Uint8Array<ArrayBuffer>; free: number } {
  const module = new ModuleBuilder();
  module.setMemory(MEMORY_PAGES);
  buildF1m(module, SNARK_SCALAR_FIELD, 'frm');
  const constant = (x: bigint) => module.alloc(littleEndian(montgomery(x)));
  const k = constant(TWICE_D_PRIME);
  const t = Array.from({ length: 9 }, () => module.alloc(ELEMENT));
  const out = module.alloc(3 * ELEMENT);

  /** A field element's address: local + k elements. */
  const at = (c: CodeBuilder, local: string, k = 0): Code =>
    k === 0 ? c.getLocal(local) : c.i32_add(c.getLocal(local), c.i32_const(k * ELEMENT));
  const tmp = (c: CodeBuilder, i: number): Code => c.i32_const(t[i]!);
  const pow5 = (c: CodeBuilder, x: Code): Code[] => [
    c.call('frm_square', x, tmp(c, 8)),
    c.call('frm_square', tmp(c, 8), tmp(c, 8)),
    c.call('frm_mul', x, tmp(c, 8), x),
  ];

  // r = 2p on the a = −1 form ("dbl-2008-hwcd": D = a·A = −A); T is computed only when `withT` (a
  // doubling followed by another never reads it). r may be p.
  for (const [name, withT] of [
    ['bjj_double', true],
    ['bjj_double_xyz', false],
  ] as const) {
    const f = module.addFunction(name);
    f.addParam('p', 'i32');
    f.addParam('r', 'i32');
    const c = f.getCodeBuilder();
    const [X, Y, Z] = [0, 1, 2].map((k) => at(c, 'p', k)) as [Code, Code, Code];
    const r = (k: number) => at(c, 'r', k);
    const v = (i: number) => tmp(c, i);
    f.addCode(
      c.call('frm_square', X, v(0)), // A = X²
      c.call('frm_square', Y, v(1)), // B = Y²
      c.call('frm_square', Z, v(2)),
      c.call('frm_add', v(2), v(2), v(2)), // C = 2Z²
      c.call('frm_add', X, Y, v(4)),
      c.call('frm_square', v(4), v(4)),
      c.call('frm_sub', v(4), v(0), v(4)),
      c.call('frm_sub', v(4), v(1), v(4)), // E = (X + Y)² − A − B
      c.call('frm_sub', v(1), v(0), v(5)), // G = B − A
      c.call('frm_sub', v(5), v(2), v(6)), // F = G − C
      c.call('frm_add', v(0), v(1), v(7)),
      c.call('frm_neg', v(7), v(7)), // H = −A − B
      c.call('frm_mul', v(4), v(6), r(0)),
      c.call('frm_mul', v(5), v(7), r(1)),
      c.call('frm_mul', v(6), v(5), r(2)),
      withT ? c.call('frm_mul', v(4), v(7), r(3)) : [],
    );
  }
  {
    // r = p + q on the a = −1 form ("add-2008-hwcd-3", k = 2d′); r may be p or q.
    const f = module.addFunction('bjj_add');
    f.addParam('p', 'i32');
    f.addParam('q', 'i32');
    f.addParam('r', 'i32');
    const c = f.getCodeBuilder();
    const p = (k: number) => at(c, 'p', k);
    const q = (k: number) => at(c, 'q', k);
    const r = (k: number) => at(c, 'r', k);
    const v = (i: number) => tmp(c, i);
    f.addCode(
      c.call('frm_sub', p(1), p(0), v(0)),
      c.call('frm_sub', q(1), q(0), v(1)),
      c.call('frm_mul', v(0), v(1), v(0)), // A = (Y1 − X1)(Y2 − X2)
      c.call('frm_add', p(1), p(0), v(1)),
      c.call('frm_add', q(1), q(0), v(2)),
      c.call('frm_mul', v(1), v(2), v(1)), // B = (Y1 + X1)(Y2 + X2)
      c.call('frm_mul', p(3), q(3), v(2)),
      c.call('frm_mul', v(2), c.i32_const(k), v(2)), // C = k·T1·T2
      c.call('frm_mul', p(2), q(2), v(3)),
      c.call('frm_add', v(3), v(3), v(3)), // D = 2·Z1·Z2
      c.call('frm_sub', v(1), v(0), v(4)), // E = B − A
      c.call('frm_sub', v(3), v(2), v(5)), // F = D − C
      c.call('frm_add', v(3), v(2), v(6)), // G = D + C
      c.call('frm_add', v(1), v(0), v(7)), // H = B + A
      c.call('frm_mul', v(4), v(5), r(0)),
      c.call('frm_mul', v(6), v(7), r(1)),
      c.call('frm_mul', v(5), v(6), r(2)),
      c.call('frm_mul', v(4), v(7), r(3)),
    );
  }
  {
    const f = module.addFunction('bjj_mul_window');
    f.addParam('table', 'i32');
    f.addParam('digits', 'i32');
    f.addParam('r', 'i32');
    f.addLocal('i', 'i32');
    f.addLocal('q', 'i32');
    const c = f.getCodeBuilder();
    const entry = (digit: Code) => c.setLocal('q', c.i32_add(c.getLocal('table'), c.i32_mul(c.i32_load8_u(digit), c.i32_const(POINT))));
    f.addCode(
      entry(c.getLocal('digits')),
      ...[0, 1, 2, 3].map((k) => c.call('frm_copy', at(c, 'q', k), at(c, 'r', k))),
      c.setLocal('i', c.i32_const(1)),
      c.block(
        c.loop(
          c.br_if(1, c.i32_eq(c.getLocal('i'), c.i32_const(WINDOWS))),
          ...['bjj_double_xyz', 'bjj_double_xyz', 'bjj_double_xyz', 'bjj_double'].map((name) =>
            c.call(name, c.getLocal('r'), c.getLocal('r')),
          ),
          entry(c.i32_add(c.getLocal('digits'), c.getLocal('i'))),
          c.call('bjj_add', c.getLocal('r'), c.getLocal('q'), c.getLocal('r')),
          c.setLocal('i', c.i32_add(c.getLocal('i'), c.i32_const(1))),
          c.br(0),
        ),
      ),
    );
  }
  {
    // r = Σ tables[i][digits[i]]: one table of 16 multiples per digit position, so no doubling at all.
    const f = module.addFunction('bjj_mul_fixed');
    f.addParam('tables', 'i32');
    f.addParam('digits', 'i32');
    f.addParam('r', 'i32');
    f.addLocal('i', 'i32');
    f.addLocal('q', 'i32');
    const c = f.getCodeBuilder();
    const entry = (i: Code) =>
      c.setLocal(
        'q',
        c.i32_add(
          c.i32_add(c.getLocal('tables'), c.i32_mul(i, c.i32_const(16 * POINT))),
          c.i32_mul(c.i32_load8_u(c.i32_add(c.getLocal('digits'), i)), c.i32_const(POINT)),
        ),
      );
    f.addCode(
      entry(c.i32_const(0)),
      ...[0, 1, 2, 3].map((k) => c.call('frm_copy', at(c, 'q', k), at(c, 'r', k))),
      c.setLocal('i', c.i32_const(1)),
      c.block(
        c.loop(
          c.br_if(1, c.i32_eq(c.getLocal('i'), c.i32_const(WINDOWS))),
          entry(c.getLocal('i')),
          c.call('bjj_add', c.getLocal('r'), c.getLocal('q'), c.getLocal('r')),
          c.setLocal('i', c.i32_add(c.getLocal('i'), c.i32_const(1))),
          c.br(0),
        ),
      ),
    );
  }
  {
    // poseidon-lite: for each round, add C, S-box (all words in full rounds, the first in partial ones), mix by M.
    const f = module.addFunction('poseidon_t3');
    f.addParam('s', 'i32');
    f.addParam('C', 'i32');
    f.addParam('M', 'i32');
    f.addLocal('x', 'i32');
    const c = f.getCodeBuilder();
    const s = (k: number) => at(c, 's', k);
    const o = (k: number) => c.i32_const(out + k * ELEMENT);
    const full = c.i32_or(
      c.i32_lt_u(c.getLocal('x'), c.i32_const(POSEIDON_FULL / 2)),
      c.i32_ge_u(c.getLocal('x'), c.i32_const(POSEIDON_FULL / 2 + POSEIDON_PARTIAL)),
    );
    const mix = [0, 1, 2].flatMap((i) => [
      c.call('frm_mul', at(c, 'M', 3 * i), s(0), o(i)),
      c.call('frm_mul', at(c, 'M', 3 * i + 1), s(1), tmp(c, 0)),
      c.call('frm_add', o(i), tmp(c, 0), o(i)),
      c.call('frm_mul', at(c, 'M', 3 * i + 2), s(2), tmp(c, 0)),
      c.call('frm_add', o(i), tmp(c, 0), o(i)),
    ]);
    f.addCode(
      c.setLocal('x', c.i32_const(0)),
      c.block(
        c.loop(
          c.br_if(1, c.i32_eq(c.getLocal('x'), c.i32_const(POSEIDON_FULL + POSEIDON_PARTIAL))),
          ...[0, 1, 2].map((k) => c.call('frm_add', s(k), at(c, 'C', k), s(k))),
          ...pow5(c, s(0)),
          c.if(full, [...pow5(c, s(1)), ...pow5(c, s(2))].flat()),
          ...mix,
          ...[0, 1, 2].map((k) => c.call('frm_copy', o(k), s(k))),
          c.setLocal('C', c.i32_add(c.getLocal('C'), c.i32_const(3 * ELEMENT))),
          c.setLocal('x', c.i32_add(c.getLocal('x'), c.i32_const(1))),
          c.br(0),
        ),
      ),
    );
  }
  {
    // @taceo/poseidon2 for t = 3: the external matrix adds the sum to each word, the internal one is
    // diag(1, 1, 2) + 1; one external multiplication before the first round.
    const f = module.addFunction('poseidon2_t3');
    f.addParam('s', 'i32');
    f.addParam('E', 'i32');
    f.addParam('I', 'i32');
    f.addLocal('x', 'i32');
    const c = f.getCodeBuilder();
    const s = (k: number) => at(c, 's', k);
    const sum = tmp(c, 0);
    const sumAll = [c.call('frm_add', s(0), s(1), sum), c.call('frm_add', sum, s(2), sum)];
    const external = [...sumAll, ...[0, 1, 2].map((k) => c.call('frm_add', s(k), sum, s(k)))];
    const internal = [
      ...sumAll,
      c.call('frm_add', s(0), sum, s(0)),
      c.call('frm_add', s(1), sum, s(1)),
      c.call('frm_add', s(2), s(2), s(2)),
      c.call('frm_add', s(2), sum, s(2)),
    ];
    const fullRounds = (count: number) =>
      c.block(
        c.loop(
          c.br_if(1, c.i32_eq(c.getLocal('x'), c.i32_const(count))),
          ...[0, 1, 2].flatMap((k) => [c.call('frm_add', s(k), at(c, 'E', k), s(k)), ...pow5(c, s(k))]),
          ...external,
          c.setLocal('E', c.i32_add(c.getLocal('E'), c.i32_const(3 * ELEMENT))),
          c.setLocal('x', c.i32_add(c.getLocal('x'), c.i32_const(1))),
          c.br(0),
        ),
      );
    f.addCode(
      ...external,
      c.setLocal('x', c.i32_const(0)),
      fullRounds(POSEIDON2_FULL / 2),
      c.setLocal('x', c.i32_const(0)),
      c.block(
        c.loop(
          c.br_if(1, c.i32_eq(c.getLocal('x'), c.i32_const(POSEIDON2_PARTIAL))),
          c.call('frm_add', s(0), at(c, 'I'), s(0)),
          ...pow5(c, s(0)),
          ...internal,
          c.setLocal('I', c.i32_add(c.getLocal('I'), c.i32_const(ELEMENT))),
          c.setLocal('x', c.i32_add(c.getLocal('x'), c.i32_const(1))),
          c.br(0),
        ),
      ),
      c.setLocal('x', c.i32_const(0)),
      fullRounds(POSEIDON2_FULL / 2),
    );
  }

  // buildF1m exports the field's functions itself.
  for (const name of ['bjj_double', 'bjj_add', 'bjj_mul_window', 'bjj_mul_fixed', 'poseidon_t3', 'poseidon2_t3'])
    module.exportFunction(name);
  return { bytes: module.build(), free: module.free };
}
