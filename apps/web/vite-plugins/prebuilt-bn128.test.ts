import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { prebuiltBn128Expression, withPrebuiltBn128 } from './prebuilt-bn128.ts';

type Curve = {
  G1: { g: Uint8Array; timesScalar(p: Uint8Array, s: Uint8Array): Uint8Array; toObject(p: Uint8Array): bigint[] };
  G2: { g: Uint8Array; timesScalar(p: Uint8Array, s: Uint8Array): Uint8Array; toObject(p: Uint8Array): bigint[][] };
  Fr: { e(v: bigint): Uint8Array };
  pairing(a: Uint8Array, b: Uint8Array): Uint8Array;
  Gt: { toObject(p: Uint8Array): unknown };
  terminate(): Promise<void>;
};
type Ffjavascript = { buildBn128(singleThread: boolean): Promise<Curve> };

// snarkjs's own ffjavascript (the one the web app bundles), not whatever else is installed.
const snarkjs = createRequire(import.meta.url).resolve('snarkjs');
const browserBuild = path.join(
  snarkjs.slice(0, snarkjs.lastIndexOf(`${path.sep}snarkjs${path.sep}`)),
  'snarkjs/node_modules/ffjavascript/build/browser.esm.js',
);
const dir = mkdtempSync(path.join(tmpdir(), 'zeroid-bn128-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function load(source: string, name: string): Promise<Ffjavascript> {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return (await import(pathToFileURL(file).href)) as Ffjavascript;
}

/** A few points and a pairing, as plain numbers, so two builds of the curve can be compared. */
async function fingerprint(ffjavascript: Ffjavascript) {
  const curve = await ffjavascript.buildBn128(true);
  const s = curve.Fr.e(0x1234567890abcdefn ** 3n);
  const p = curve.G1.timesScalar(curve.G1.g, s);
  const q = curve.G2.timesScalar(curve.G2.g, curve.Fr.e(77n));
  const result = { p: curve.G1.toObject(p), q: curve.G2.toObject(q), e: curve.Gt.toObject(curve.pairing(p, q)) };
  await curve.terminate();
  return result;
}

describe('the prebuilt BN254 WebAssembly of the prover worker (decision 066)', () => {
  const original = readFileSync(browserBuild, 'utf8');

  it('computes exactly what ffjavascript computes when it generates the module itself', async () => {
    const rewritten = withPrebuiltBn128(original, prebuiltBn128Expression());
    expect(rewritten).not.toBe(original);
    expect(rewritten).toContain('const bn128wasm = plugins ? (() => {');
    const [before, after] = await Promise.all([load(original, 'original.mjs'), load(rewritten, 'rewritten.mjs')]);
    const expected = await fingerprint(before);
    expect(expected.p[0]).toBeTypeOf('bigint');
    expect(await fingerprint(after)).toEqual(expected);
  });

  it('fails the build when ffjavascript no longer reads as the version it was written for', () => {
    expect(() => withPrebuiltBn128(original.replace('buildBn128$1(moduleBuilder);', 'buildBn128$2(moduleBuilder);'), '{}')).toThrow(
      /ffjavascript changed/,
    );
  });
});
