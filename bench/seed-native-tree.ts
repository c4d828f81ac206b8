import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { progressReporter } from './seed-progress.ts';
import { levelFile, levelLengths, nodesIn } from './seed-tree-levels.ts';

const P = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const R = (1n << 256n) % P;
const limbs = (x: bigint) => `{${[0n, 1n, 2n, 3n].map((i) => `0x${((x >> (64n * i)) & ((1n << 64n) - 1n)).toString(16)}ULL`).join(', ')}}`;
const mont = (x: bigint) => limbs((x * R) % P);

/** poseidon-lite's own constants for two inputs (t = 3), read from its package. */
function poseidonConstants(): { C: bigint[]; M: bigint[][] } {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('poseidon-lite'));
  const unstringify = (require(path.join(dir, 'poseidon/unstringify.js')) as { default: (o: unknown) => unknown }).default;
  return unstringify((require(path.join(dir, 'constants/2.js')) as { default: unknown }).default) as { C: bigint[]; M: bigint[][] };
}

/**
 * Compiles bench/native/poseidon-level.c with poseidon-lite's constants into `buildDir`, and checks
 * it against poseidon-lite on random pairs. Returns undefined without a C compiler: the seed then
 * hashes in JavaScript (slowly).
 */
export function buildNativeHasher(buildDir: string): string | undefined {
  if (spawnSync('gcc', ['--version']).status !== 0) return undefined;
  mkdirSync(buildDir, { recursive: true });
  const { C, M } = poseidonConstants();
  let inverse = 1n;
  for (let i = 0; i < 64; i += 1) inverse = (inverse * (2n - P * inverse)) & ((1n << 64n) - 1n);
  const header = [
    `static const uint64_t P[4] = ${limbs(P)};`,
    `static const uint64_t INV = 0x${((1n << 64n) - inverse).toString(16)}ULL;`,
    `static const uint64_t R2[4] = ${limbs((R * R) % P)};`,
    `#define ROUNDS_F 8`,
    `#define ROUNDS_P ${C.length / 3 - 8}`,
    `static const uint64_t C[${C.length}][4] = {${C.map(mont).join(',\n')}};`,
    `static const uint64_t M[3][3][4] = {${M.map((row) => `{${row.map(mont).join(', ')}}`).join(',\n')}};`,
  ].join('\n');
  writeFileSync(path.join(buildDir, 'poseidon-constants.h'), header + '\n');
  const binary = path.join(buildDir, 'poseidon-level');
  execFileSync('gcc', ['-O3', '-march=native', '-I', buildDir, '-o', binary, path.join(import.meta.dirname, 'native/poseidon-level.c')]);

  // Check: 2,001 random leaves (an odd count, so the carried last node is covered too).
  const pairs = 1000;
  const leaves = Array.from({ length: 2 * pairs + 1 }, () => BigInt(`0x${randomBytes(31).toString('hex')}`));
  const input = path.join(buildDir, 'check-in.bin');
  const output = path.join(buildDir, 'check-out.bin');
  writeFileSync(input, Buffer.concat(leaves.map((l) => Buffer.from(l.toString(16).padStart(64, '0'), 'hex'))));
  writeFileSync(output, Buffer.alloc(0));
  execFileSync(binary, [input, output, String(leaves.length)], { stdio: ['ignore', 'ignore', 'ignore'] });
  const got = readFileSync(output);
  for (let i = 0; i <= pairs; i += 1) {
    const expected = i < pairs ? poseidon2([leaves[2 * i]!, leaves[2 * i + 1]!]) : leaves[2 * i]!;
    if (BigInt(`0x${got.toString('hex', i * 32, i * 32 + 32)}`) !== expected)
      throw new Error(`native Poseidon differs from poseidon-lite at pair ${i}`);
  }
  return binary;
}

/** `hashLevels` with the native hasher: level files of 32-byte nodes, resumable, returns the root. */
export function hashLevelsNative(binary: string, dir: string, size: number): bigint {
  const lengths = levelLengths(size);
  const total = lengths.slice(1).reduce((sum, n) => sum + n, 0);
  // nodesIn drops a half-written last node, so the hasher appends after whole nodes only.
  const nodes = (level: number) => nodesIn(levelFile(dir, level));
  let before = 0;
  for (let level = 1; level < lengths.length; level += 1) before += nodes(level);
  const report = progressReporter('tree', total, before);
  let done = before;
  for (let level = 1; level < lengths.length; level += 1) {
    const have = nodes(level);
    if (have >= lengths[level]!) continue;
    const run = spawnSync(binary, [levelFile(dir, level - 1), levelFile(dir, level), String(lengths[level - 1])], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (run.status !== 0) throw new Error(`poseidon-level failed at level ${level}`);
    done += lengths[level]! - have;
    report(done);
  }
  const top = readFileSync(levelFile(dir, lengths.length - 1));
  return BigInt(`0x${top.toString('hex', 0, 32)}`);
}
