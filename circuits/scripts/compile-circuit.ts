import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { compileCircom } from '../setup/compile-circom.ts';

/**
 * Compiles circuits/registration-v3.circom with circom 2.2 in WebAssembly (the npm package `circom2`)
 * and circomlib from node_modules, `--O2`, and copies the witness generator and the R1CS into
 * circuits/artifacts/. The same sources and compiler give the same bytes, which `ceremony verify`
 * checks by compiling again. A changed circuit needs a new phase 2 (`npm run ceremony -- setup`) and
 * its contributions.
 *
 *   npm run circuit:compile
 */
const root = path.join(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });
const { r1cs, wasm } = await compileCircom(path.join(root, 'registration-v3.circom'), out);
copyFileSync(wasm, path.join(root, 'artifacts', 'registration-v3.wasm'));
copyFileSync(r1cs, path.join(root, 'artifacts', 'registration-v3.r1cs'));
console.log('Copied registration-v3.wasm and registration-v3.r1cs to circuits/artifacts/');
