import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { loadOprfKey } from './server.ts';
import { startServerOfCheckout, startServerProcess } from '../apps/server/test/server-process.ts';
import { killOprfNode, SERVER_SECRET_ENV, splitKey, startOprfNode, type OprfNodeProcess } from '../apps/server/test/threshold-processes.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium.ts';
import { median } from './stats.ts';

/**
 * The threshold goal of decision 065: the browser registration journey in threshold mode (protocol v3: two
 * OPRF rounds through 2 of 3 nodes and the registration proof) at most 2× the v2 journey, in the same
 * run. No server here registers v2 any more, so the v2 side is a checkout of fec250e, main's last
 * commit before protocol v3 (single key, its own `npm ci`), serving its own web app. One Chromium,
 * one page per side, an untimed registration each first; then the sides take turns, the order
 * flipping each run. A journey is timed from the click on "Register" to the DID on the screen.
 * Not a suite: it needs that second checkout.
 *
 *   git worktree add /tmp/zeroid-v2 fec250e && (cd /tmp/zeroid-v2 && npm ci)
 *   npx tsx bench/registration-journey-against-v2.ts /tmp/zeroid-v2 [runs = 5]
 */
const [v2Checkout, runsArg] = process.argv.slice(2);
if (!v2Checkout) throw new Error('Usage: npx tsx bench/registration-journey-against-v2.ts <checkout of fec250e> [runs]');
const runs = Number(runsArg ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const v2Root = path.resolve(v2Checkout);
for (const checkout of [root, v2Root])
  execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], { cwd: checkout, stdio: 'ignore' });

const dir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-registration-'));
const stops: Array<() => Promise<unknown>> = [];
const nodes: OprfNodeProcess[] = [];
try {
  // Protocol v3 in threshold mode: a key split 2-of-3, three node processes, the server and its web app.
  const dataDir = path.join(dir, 'threshold');
  await loadOprfKey(dataDir, undefined);
  const shareDirs = await splitKey({ DATA_DIR: dataDir }, path.join(dir, 'shares'));
  nodes.push(...(await Promise.all(shareDirs.map((share) => startOprfNode(share)))));
  const threshold = await startServerProcess({
    DATA_DIR: dataDir,
    WEB_DIST: path.join(root, 'apps/web/dist'),
    ...SERVER_SECRET_ENV,
    OPRF_NODES: nodes.map((node) => node.url).join(','),
    OPRF_THRESHOLD: '2',
  });
  stops.push(() => threshold.stop());
  // The browser calls the nodes from the server's origin: restarted with it allowed, same shares and ports.
  for (const [i, node] of nodes.entries()) {
    await killOprfNode(node);
    nodes[i] = await startOprfNode(node.dataDir, { port: node.port, env: { CORS_ORIGINS: threshold.url } });
  }

  // Protocol v2, single key, from the old checkout's sources under tsx, as this checkout's servers run in benches.
  const v2 = await startServerOfCheckout(v2Root, { DATA_DIR: path.join(dir, 'v2'), WEB_DIST: path.join(v2Root, 'apps/web/dist') });
  stops.push(() => v2.stop());
  const v2Url = v2.url;

  assertChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  stops.push(() => browser.close());
  const sides = [
    { name: 'v3, 2 of 3 nodes', page: await browser.newPage({ baseURL: threshold.url }), ms: [] as number[] },
    { name: 'v2, single key', page: await browser.newPage({ baseURL: v2Url }), ms: [] as number[] },
  ];
  const tag = Date.now().toString(36);
  const register = async (page: Page, n: string) => {
    await page.goto('/register');
    await page.getByLabel('Enter ID:', { exact: true }).fill(`bench-reg-${tag}-${n}`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(`bench registration ${tag} ${n}`);
    const started = performance.now();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 120_000 });
    return performance.now() - started;
  };
  for (const side of sides) await register(side.page, `warm-${side.name}`);
  for (let run = 0; run < runs; run++) {
    for (const side of run % 2 ? [...sides].reverse() : sides) {
      side.ms.push(await register(side.page, `${run}-${side.name}`));
      console.error(`run ${run + 1}/${runs}: ${side.name} ${side.ms.at(-1)!.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`);
    }
  }
  const [v3Side, v2Side] = sides as [(typeof sides)[0], (typeof sides)[0]];
  console.log(
    `registration journey, medians of ${runs}: v3 threshold ${median(v3Side.ms).toFixed(0)} ms, v2 ${median(v2Side.ms).toFixed(0)} ms; ` +
      `ratio ${(median(v3Side.ms) / median(v2Side.ms)).toFixed(2)} (goal ≤ 2); per run ${v3Side.ms.map((ms, i) => (ms / v2Side.ms[i]!).toFixed(2)).join(' ')}`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await Promise.all(nodes.map(killOprfNode));
  rmSync(dir, { recursive: true, force: true });
}
