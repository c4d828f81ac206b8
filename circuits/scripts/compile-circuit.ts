import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Compiles circuits/registration-v3.circom with circom 2.2 in WebAssembly (the npm package `circom2`)
 * and circomlib from node_modules, `--O2`, and copies the witness generator and the R1CS into
 * circuits/artifacts/. The same sources and compiler give the same bytes, which checksums.json pins.
 * A changed circuit needs a new phase 2 (`npm run ceremony -- setup`) and its contributions.
 *
 *   npm run circuit:compile
 */
const require = createRequire(import.meta.url);
const root = path.join(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });
const circom = path.join(path.dirname(require.resolve('circom2/package.json')), 'cli.js');
const modules = path.join(root, '..', 'node_modules');
execFileSync(process.execPath, [circom, path.join(root, 'registration-v3.circom'), '--r1cs', '--wasm', '--O2', '-l', modules, '-o', out], {
  stdio: 'inherit',
});
copyFileSync(path.join(out, 'registration-v3_js', 'registration-v3.wasm'), path.join(root, 'artifacts', 'registration-v3.wasm'));
copyFileSync(path.join(out, 'registration-v3.r1cs'), path.join(root, 'artifacts', 'registration-v3.r1cs'));
console.log('Copied registration-v3.wasm and registration-v3.r1cs to circuits/artifacts/');
