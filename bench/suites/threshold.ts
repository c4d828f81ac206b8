import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { loadOprfKey, openStorage } from '../server.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/test/server-process.ts';
import {
  killOprfNode,
  SERVER_SECRET_ENV,
  splitKey,
  startOprfNode,
  type OprfNodeProcess,
} from '../../apps/server/test/threshold-processes.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { randomIdentities, SeedTree, seedIdentities } from '../seed-identities.ts';
import { entry, repeat, type BenchEntry } from '../stats.ts';
import { loadBareProver } from '../browser/bare-prover-in-page.ts';
import { verifyOnce } from './browser.ts';
import { load } from './http.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');

/**
 * threshold.* (decision 021), 2-of-3 with three real node processes on this machine:
 * - browser.verify_journey_threshold: the warm verification journey in Chromium with the OPRF round
 *   sent to the nodes, beside bare `generateProof` in the same page (goal ≤ 1.25×);
 * - http.raw_register_rps_threshold: raw registrations at concurrency 16 with the server as the nodes'
 *   client, beside the single-key server in the same run, runs taking turns (goal ≥ 0.5×).
 */
export async function runThreshold({ runs, seconds, members }: { runs: number; seconds: number; members: number }): Promise<BenchEntry[]> {
  execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], { cwd: root, stdio: 'inherit' });
  const dir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-threshold-'));
  const dataDir = path.join(dir, 'server');
  const started: { stop(): Promise<void> }[] = [];
  const nodes: OprfNodeProcess[] = [];
  try {
    // One key, as a single-key server would make it, with `members` identities; then split 2-of-3.
    await loadOprfKey(dataDir, undefined);
    const storage = await openStorage({ dataDir });
    await seedIdentities(storage, new SeedTree(), randomIdentities(members - 1));
    await storage.close();
    const shareDirs = await splitKey({ DATA_DIR: dataDir }, path.join(dir, 'shares'));
    nodes.push(...(await Promise.all(shareDirs.map((share) => startOprfNode(share)))));
    // A load test measures throughput under saturation: the node timeout is not what it is about. The
    // servers share the attempt-key secret, so their admissions (decision 032) are the nodes' ADMISSION_KEYS.
    const thresholdEnv = {
      ...SERVER_SECRET_ENV,
      OPRF_NODES: nodes.map((node) => node.url).join(','),
      OPRF_THRESHOLD: '2',
      OPRF_NODE_TIMEOUT_MS: '8000',
    };
    const start = async (env: Record<string, string>): Promise<ServerProcess> => {
      const server = await startServerProcess(env);
      started.push(server);
      return server;
    };

    // Raw registrations: single key (key file, derivation threads) against threshold, turn by turn.
    const single = await start({ DATA_DIR: path.join(dir, 'single') });
    const threshold = await start({ DATA_DIR: path.join(dir, 'raw-threshold'), ...thresholdEnv });
    const tag = Date.now().toString(36);
    const body = (mode: string, run: number) => (i: number) => ({
      id_info: `bench ${mode} ${tag} ${run} ${i}`,
      bio_info: `bio ${mode} ${tag} ${run} ${i}`,
    });
    const singleRps: number[] = [];
    const thresholdRps = await repeat(runs, async (run) => {
      singleRps.push((await load(single.url, '/register', body('single', run), seconds, 30)).rps);
      const { rps } = await load(threshold.url, '/register', body('threshold', run), seconds, 30);
      console.error(`  raw register: single key ${singleRps.at(-1)!.toFixed(0)} req/s, 2-of-3 ${rps.toFixed(0)} req/s`);
      return rps;
    });
    await Promise.all([single.stop(), threshold.stop()]);

    // The browser journey against the server on the seeded (split) key.
    const server = await start({ DATA_DIR: dataDir, WEB_DIST: webDist, ...thresholdEnv });
    // The page calls the nodes from the server's origin, which is known only now: restart each node
    // on its port with that origin allowed (same shares, same URLs, so the server's checks still hold).
    for (const [i, node] of nodes.entries()) {
      await killOprfNode(node);
      nodes[i] = await startOprfNode(node.dataDir, { port: node.port, env: { CORS_ORIGINS: server.url } });
    }
    assertChromium();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    started.push({ stop: () => browser.close() });
    const page = await browser.newPage({ baseURL: server.url });
    const bio = `bench threshold iris ${tag}`;
    await page.goto('/register');
    await page.getByLabel('Enter ID:', { exact: true }).fill(`bench-threshold-${tag}`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 60_000 });
    await verifyOnce(page, bio); // cold: artifacts downloaded, node keys fetched
    const { depth, prove: proveBare } = await loadBareProver(page, server.url, members);
    const journeys: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < runs; run++) {
      journeys.push((await verifyOnce(page, bio)).inPage);
      bare.push(await proveBare(run));
    }
    console.error(
      `  threshold journeys ${journeys.map((j) => j.toFixed(0)).join(', ')} ms; bare generateProof ${bare.map((b) => b.toFixed(0)).join(', ')} ms (depth ${depth})`,
    );

    return [
      entry(
        'browser.verify_journey_threshold',
        'ms',
        'lower',
        journeys,
        bare,
        `bare \`generateProof\` at depth ${depth} in the same page; the journey's OPRF round goes to 3 local nodes, 2 needed`,
      ),
      entry(
        'http.raw_register_rps_threshold',
        'req/s',
        'higher',
        thresholdRps,
        singleRps,
        'single-key raw registration in the same run (its key on the derivation threads), runs taking turns',
      ),
    ];
  } finally {
    for (const stoppable of started.reverse()) await stoppable.stop().catch(() => undefined);
    await Promise.all(nodes.map(killOprfNode));
    rmSync(dir, { recursive: true, force: true });
  }
}
