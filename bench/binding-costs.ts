import { readFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { bundleForPage } from './browser/bundle-for-page.ts';
import { Group } from '@semaphore-protocol/group';
import { Identity } from '@semaphore-protocol/identity';
import { generateProof } from '@semaphore-protocol/proof';
import { groth16 } from 'snarkjs';
import { Artifacts } from './server.ts';
import { releaseSnarkjs } from '../apps/server/test/real-proofs.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium.ts';
import { costModelInput } from './binding/cost-model-input.ts';
import { median } from './stats.ts';

/**
 * The measured side of decision 016 (binding a zero-knowledge registration to the OPRF): how many
 * R1CS constraints Semaphore v4's circuit has at depths 1, 10 and 20, read from the pinned zkeys, and
 * how long `generateProof` takes for each in Node and in Debian's Chromium (artifacts in memory, one
 * warm-up, then `runs` proofs). From these the decision extrapolates browser milliseconds per
 * constraint for circuits we have not built. Given a directory holding the compiled registration
 * cost model (`registration-cost-model.wasm` and `.zkey`, built as bench/binding/README.md says), it
 * times that circuit too, in the same rounds, and checks its outputs against a JavaScript
 * computation of the same OPRF. Provers take turns within each round, so a slow spell of this shared
 * machine weighs on all of them. Not part of `npm run bench`:
 *
 *   npx tsx bench/binding-costs.ts [runs] [cost-model-dir]   → bench/results/binding-costs.json
 */
const runs = Number(process.argv[2] ?? 5);
const costModelDir = process.argv[3];
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

type Prover = { name: string; prove(run: number): Promise<number> };

function checkSignals(publicSignals: string[], expected: string[]) {
  if (JSON.stringify(publicSignals) !== JSON.stringify(expected))
    throw new Error('the cost model did not compute the expected commitment and ID tag');
}

/** Every prover once to warm up, then `runs` rounds in which each proves once, in turn. */
async function rounds(provers: Prover[]): Promise<Map<string, number[]>> {
  const samples = new Map(provers.map((prover) => [prover.name, [] as number[]]));
  for (const prover of provers) await prover.prove(-1);
  for (let run = 0; run < runs; run++) for (const prover of provers) samples.get(prover.name)!.push(await prover.prove(run));
  return samples;
}

function nodeProvers(artifacts: Artifacts): Prover[] {
  const identity = new Identity('binding-costs');
  const group = new Group([identity.commitment, 7919n]);
  const provers: Prover[] = depths.map((depth) => ({
    name: `semaphore-${depth}`,
    async prove(run) {
      const snarkArtifacts = { wasm: artifacts.get(`semaphore-${depth}.wasm`)!.path, zkey: artifacts.get(`semaphore-${depth}.zkey`)!.path };
      const started = performance.now();
      await generateProof(identity, group, `m ${run}`, `s ${run}`, depth, snarkArtifacts);
      return performance.now() - started;
    },
  }));
  if (costModelDir) {
    provers.push({
      name: 'registration-cost-model',
      async prove() {
        const { input, expected } = costModelInput();
        const started = performance.now();
        const { publicSignals } = await groth16.fullProve(
          input,
          path.join(costModelDir, 'registration-cost-model.wasm'),
          path.join(costModelDir, 'registration-cost-model.zkey'),
        );
        const ms = performance.now() - started;
        checkSignals(publicSignals, expected);
        return ms;
      },
    });
  }
  return provers;
}

const bundle = (entry: string) => bundleForPage(entry, mkdtempSync(path.join(tmpdir(), 'zeroid-binding-costs-')));

const BARE_PROVER = '/bare-prover.js';
const COST_MODEL_PROVER = '/cost-model-prover.js';

async function browserSamples(artifacts: Artifacts): Promise<Map<string, number[]>> {
  assertChromium();
  const bareProver = await bundle(path.join(import.meta.dirname, 'browser/bare-prover.ts'));
  const costModelProver = costModelDir ? await bundle(path.join(import.meta.dirname, 'binding/cost-model-prover.ts')) : '';
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const origin = 'http://binding-costs.test';
    await page.route(`${origin}/**`, async (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === BARE_PROVER) return route.fulfill({ contentType: 'text/javascript', body: bareProver });
      if (pathname === COST_MODEL_PROVER) return route.fulfill({ contentType: 'text/javascript', body: costModelProver });
      if (pathname.startsWith('/cost-model/') && costModelDir)
        return route.fulfill({
          contentType: 'application/octet-stream',
          body: readFileSync(path.join(costModelDir, pathname.slice('/cost-model/'.length))),
        });
      const artifact = artifacts.get(pathname.replace('/artifacts/', ''));
      if (artifact) return route.fulfill({ contentType: 'application/octet-stream', body: readFileSync(artifact.path) });
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>binding costs</title>' });
    });
    await page.goto(`${origin}/`);
    type BareProver = { setup(depth: number, members: number): Promise<void>; prove(run: number): Promise<number> };
    type CostModelProver = { setup(): Promise<void>; prove(input: unknown): Promise<{ ms: number; publicSignals: string[] }> };
    const provers: Prover[] = depths.map((depth) => ({
      name: `semaphore-${depth}`,
      prove: (run) =>
        page.evaluate(
          async ([url, d, r]) => {
            // One bare prover holds one depth's artifacts: set it up again when the depth changes.
            const bare = (await import(url)) as BareProver;
            const state = window as unknown as { bareDepth?: number };
            if (state.bareDepth !== d) {
              await bare.setup(d, 2);
              state.bareDepth = d;
            }
            return bare.prove(r);
          },
          [BARE_PROVER, depth, run] as const,
        ),
    }));
    if (costModelDir) {
      await page.evaluate(async (url) => ((await import(url)) as CostModelProver).setup(), COST_MODEL_PROVER);
      provers.push({
        name: 'registration-cost-model',
        async prove() {
          const { input, expected } = costModelInput();
          const { ms, publicSignals } = await page.evaluate(async ([url, i]) => ((await import(url)) as CostModelProver).prove(i), [
            COST_MODEL_PROVER,
            input,
          ] as const);
          checkSignals(publicSignals, expected);
          return ms;
        },
      });
    }
    return await rounds(provers);
  } finally {
    await browser.close();
  }
}

const artifacts = await Artifacts.load();
const zkeys = new Map<string, string>(depths.map((depth) => [`semaphore-${depth}`, artifacts.get(`semaphore-${depth}.zkey`)!.path]));
if (costModelDir) zkeys.set('registration-cost-model', path.join(costModelDir, 'registration-cost-model.zkey'));
const node = await rounds(nodeProvers(artifacts));
await releaseSnarkjs();
const chromiumMs = await browserSamples(artifacts);
const table = [...zkeys].map(([name, zkey]) => {
  const nodeMs = node.get(name)!;
  const browserMs = chromiumMs.get(name)!;
  const row = { name, ...zkeyConstraints(zkey), nodeMs, nodeMedianMs: median(nodeMs), browserMs, browserMedianMs: median(browserMs) };
  console.error(
    `${name}: ${row.constraints} constraints; Node ${nodeMs.map((n) => n.toFixed(0)).join(', ')} ms; Chromium ${browserMs.map((n) => n.toFixed(0)).join(', ')} ms`,
  );
  return row;
});
const resultsDir = path.join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  path.join(resultsDir, 'binding-costs.json'),
  JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, circuits: table }, null, 2) + '\n',
);
console.table(
  table.map(({ name, constraints, domainSize, nodeMedianMs, browserMedianMs }) => ({
    name,
    constraints,
    domainSize,
    nodeMedianMs: Math.round(nodeMedianMs),
    browserMedianMs: Math.round(browserMedianMs),
  })),
);
process.exit(0);
