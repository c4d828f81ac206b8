import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CEREMONY_CIRCUITS, ceremonyCircuit } from '../setup/ceremony-circuits.ts';
import { compileCircom } from '../setup/compile-circom.ts';

/**
 * Compiles the circuits with a trusted setup (circuits/setup/ceremony-circuits.ts: registration-v3,
 * registration-credential), or only the one named, with circom 2.2 in WebAssembly (the npm package
 * `circom2`) and circomlib from node_modules, `--O2`, and copies each witness generator and R1CS into
 * circuits/artifacts/. The same sources and compiler give the same bytes, which `ceremony verify`
 * checks by compiling again. A changed circuit needs a new phase 2 (`npm run ceremony -- setup
 * --circuit NAME`) and its contributions.
 *
 *   npm run circuit:compile [-- NAME]
 */
const root = path.join(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });
const named = process.argv[2];
for (const { name, layout } of named ? [ceremonyCircuit(named)] : CEREMONY_CIRCUITS) {
  const { r1cs, wasm } = await compileCircom(layout.circuit, out);
  copyFileSync(wasm, path.join(layout.artifacts, `${name}.wasm`));
  copyFileSync(r1cs, path.join(layout.artifacts, `${name}.r1cs`));
  console.log(`Copied ${name}.wasm and ${name}.r1cs to circuits/artifacts/`);
}
