import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const circom = path.join(path.dirname(require.resolve('circom2/package.json')), 'cli.js');
/** circomlib and the other circuit libraries: this checkout's node_modules. */
const modules = path.join(import.meta.dirname, '..', '..', 'node_modules');
/**
 * circomlib's own folder too: `@zk-kit/binary-merkle-root.circom` includes `poseidon.circom` and the
 * others by bare name, as Semaphore's build resolves them. Our sources name `circomlib/circuits/…`, the
 * same files: the R1CS and witness generators of the other circuits do not change (checked).
 */
const circomlib = path.join(modules, 'circomlib', 'circuits');

/**
 * Compiles a circom source with circom 2.2 in WebAssembly (the pinned npm package `circom2`), `--O2`,
 * circomlib from node_modules, into `outDir`; returns the R1CS and witness generator it wrote. The
 * output depends only on the sources and the compiler (not on the directory), so `ceremony verify`
 * recompiles and compares byte for byte.
 */
export async function compileCircom(source: string, outDir: string): Promise<{ r1cs: string; wasm: string }> {
  const name = path.basename(source, '.circom');
  await promisify(execFile)(process.execPath, [circom, source, '--r1cs', '--wasm', '--O2', '-l', modules, '-l', circomlib, '-o', outDir], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return { r1cs: path.join(outDir, `${name}.r1cs`), wasm: path.join(outDir, `${name}_js`, `${name}.wasm`) };
}
