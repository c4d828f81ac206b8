import { readFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { Group } from '@semaphore-protocol/group';
import { Identity } from '@semaphore-protocol/identity';
import { generateProof } from '@semaphore-protocol/proof';
import { Artifacts } from '../apps/server/src/services/artifacts.ts';
import { releaseSnarkjs } from '../apps/server/test/real-proofs.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium.ts';
import { median } from './stats.ts';

/**
 * The measured side of decision 016 (binding a zero-knowledge registration to the OPRF): how many
 * R1CS constraints Semaphore v4's circuit has at depths 1, 10 and 20, read from the pinned zkeys, and
 * how long `generateProof` takes for each in Node and in Debian's Chromium (artifacts in memory, one
 * warm-up, then `runs` proofs). From these the decision extrapolates browser milliseconds per
 * constraint for circuits we have not built. Not part of `npm run bench`:
 *
 *   npx tsx bench/binding-costs.ts [runs]   → bench/results/binding-costs.json
 */
const runs = Number(process.argv[2] ?? 5);
const depths = [1, 10, 20] as const;

/**
 * R1CS constraints of a Groth16 zkey (snarkjs's binary format). The zkey keeps no count, but section 4
 * lists the A and B matrix coefficients by constraint index; snarkjs appends nPublic + 1 constraints
 * (one per public signal and the constant one), so the circuit's own count is the highest index + 1
 * minus those.
 */
export function zkeyConstraints(file: string): { constraints: number; nPublic: number; domainSize: number } {
  const bytes = readFileSync(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.subarray(0, 4).toString('latin1') !== 'zkey') throw new Error(`${file} is not a zkey`);
  const sections = new Map<number, { start: number; size: number }>();
  let at = 12;
  const count = view.getUint32(8, true);
  for (let i = 0; i < count; i++) {
    const type = view.getUint32(at, true);
    const size = Number(view.getBigUint64(at + 4, true));
    sections.set(type, { start: at + 12, size });
    at += 12 + size;
  }
  const header = sections.get(2)!;
  let h = header.start;
  const n8q = view.getUint32(h, true);
  h += 4 + n8q;
  const n8r = view.getUint32(h, true);
  h += 4 + n8r;
  h += 4; // nVars
  const nPublic = view.getUint32(h, true);
  const domainSize = view.getUint32(h + 4, true);
  const coefs = sections.get(4)!;
  const nCoefs = view.getUint32(coefs.start, true);
  let highest = 0;
  for (let i = 0, c = coefs.start + 4; i < nCoefs; i++, c += 12 + n8r) highest = Math.max(highest, view.getUint32(c + 4, true));
  return { constraints: highest + 1 - (nPublic + 1), nPublic, domainSize };
}

async function nodeProofMs(depth: number, wasm: string, zkey: string): Promise<number[]> {
  const identity = new Identity('binding-costs');
  const group = new Group([identity.commitment, 7919n]);
  const samples: number[] = [];
  for (let run = -1; run < runs; run++) {
    const started = performance.now();
    await generateProof(identity, group, `m ${run}`, `s ${run}`, depth, { wasm, zkey });
    if (run >= 0) samples.push(performance.now() - started);
  }
  return samples;
}

async function browserProofMs(): Promise<Map<number, number[]>> {
  assertChromium();
  const outDir = mkdtempSync(path.join(tmpdir(), 'zeroid-binding-costs-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      lib: { entry: path.join(import.meta.dirname, 'browser/bare-prover.ts'), formats: ['es'], fileName: () => 'bare-prover.js' },
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
  });
  const bundle = readFileSync(path.join(outDir, 'bare-prover.js'), 'utf8');
  const artifacts = await Artifacts.load();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results = new Map<number, number[]>();
  try {
    const page = await browser.newPage();
    const origin = 'http://binding-costs.test';
    await page.route(`${origin}/**`, async (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === '/bare-prover.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
      const artifact = artifacts.get(pathname.replace('/artifacts/', ''));
      if (artifact) return route.fulfill({ contentType: 'application/octet-stream', body: readFileSync(artifact.path) });
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>binding costs</title>' });
    });
    await page.goto(`${origin}/`);
    type BareProver = { setup(depth: number, members: number): Promise<void>; prove(run: number): Promise<number> };
    for (const depth of depths) {
      const samples = await page.evaluate(
        async ([d, n]) => {
          const bare = (await import('/bare-prover.js' as string)) as BareProver;
          await bare.setup(d, 2);
          await bare.prove(-1);
          const out: number[] = [];
          for (let run = 0; run < n; run++) out.push(await bare.prove(run));
          return out;
        },
        [depth, runs] as const,
      );
      results.set(depth, samples);
    }
  } finally {
    await browser.close();
  }
  return results;
}

const artifacts = await Artifacts.load();
const rows = [];
for (const depth of depths) {
  const wasm = artifacts.get(`semaphore-${depth}.wasm`)!.path;
  const zkey = artifacts.get(`semaphore-${depth}.zkey`)!.path;
  const node = await nodeProofMs(depth, wasm, zkey);
  rows.push({ depth, ...zkeyConstraints(zkey), nodeMs: node, nodeMedianMs: median(node) });
  console.error(`depth ${depth}: ${rows.at(-1)!.constraints} constraints, Node ${node.map((n) => n.toFixed(0)).join(', ')} ms`);
}
await releaseSnarkjs();
const browserMs = await browserProofMs();
const table = rows.map((row) => {
  const samples = browserMs.get(row.depth)!;
  console.error(`depth ${row.depth}: Chromium ${samples.map((n) => n.toFixed(0)).join(', ')} ms`);
  return { ...row, browserMs: samples, browserMedianMs: median(samples) };
});
const resultsDir = path.join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  path.join(resultsDir, 'binding-costs.json'),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, semaphore: table }, null, 2) + '\n',
);
console.table(table.map(({ depth, constraints, domainSize, nodeMedianMs, browserMedianMs }) => ({ depth, constraints, domainSize, nodeMedianMs, browserMedianMs })));
process.exit(0);
