import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startServerProcess } from '../../apps/server/test/server-process.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { entry, type BenchEntry } from '../stats.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');

/** The slow phone of decision 043: 1.6 Mbps down, 750 kbps up, 150 ms latency, CPU slowed 4×. */
const SLOW_PHONE = { downloadBps: 1_600_000, uploadBps: 750_000, latencyMs: 150, cpuSlowdown: 4 };
const GOAL_MS = 5_000;
const BIO = 'first visit: right index finger, ridge loop whorl 12 31 57';

interface Journey {
  /** When the circuit and proving key had both arrived, in ms after the click (negative: before it). */
  artifactsDoneAfterClick: number;
  /** From the click on "Verify User" to the verdict's navigation, timed in the page. */
  clickToVerdict: number;
  /** From the start of the welcome page's navigation to the verdict. */
  whole: number;
}

/**
 * One first-time visitor (a fresh browser context: no HTTP cache, no Cache API, no worker), on a
 * phone-sized page: lands on the welcome page and reads it for 3 s, opens Verification, types the
 * biometric over 5 s, clicks "Verify User". With `slow`, the slow phone through the DevTools protocol,
 * as decision 043 measured it: its network for the page and its workers, its CPU for the page's thread.
 * Chromium throttles no worker's CPU ("Operation is only supported for pages, not workers"), so the
 * prover's own computation runs at this machine's speed in both (decision 043).
 */
async function firstVisit(browser: Browser, baseURL: string, slow: boolean): Promise<Journey> {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    if (slow) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: SLOW_PHONE.latencyMs,
        downloadThroughput: SLOW_PHONE.downloadBps / 8,
        uploadThroughput: SLOW_PHONE.uploadBps / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuSlowdown });
    }
    // When each artifact's last byte arrived (the worker's requests are the page's here too).
    const artifactEnds: number[] = [];
    page.on('requestfinished', (request) => {
      if (!new URL(request.url()).pathname.startsWith('/artifacts/semaphore-')) return;
      const timing = request.timing();
      artifactEnds.push(timing.startTime + timing.responseEnd);
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'Verification', exact: true }).waitFor();
    await page.waitForTimeout(3_000);
    await page.getByRole('button', { name: 'Verification', exact: true }).click();
    const field = page.getByPlaceholder('Touch to verify!', { exact: true });
    await field.click();
    await page.keyboard.type(BIO, { delay: 5_000 / BIO.length });
    await page.evaluate(() => {
      const marks = window as unknown as { journeyClick?: number; journeyVerdict?: number };
      document.addEventListener('click', () => (marks.journeyClick ??= performance.now()), { capture: true, once: true });
      navigation.addEventListener('navigate', () => (marks.journeyVerdict ??= performance.now()), { once: true });
    });
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
    await page.waitForURL(/\/user-authorised$/, { timeout: 120_000 });
    const times = await page.evaluate(() => {
      const { journeyClick, journeyVerdict } = window as unknown as { journeyClick: number; journeyVerdict: number };
      // The welcome page's navigation started at the time origin: the app is one document throughout.
      return { clickToVerdict: journeyVerdict - journeyClick, whole: journeyVerdict };
    });
    if (artifactEnds.length !== 2)
      throw new Error(`expected the circuit and the proving key, saw ${artifactEnds.length} artifact downloads`);
    return { ...times, artifactsDoneAfterClick: Math.max(...artifactEnds) - clickedAt };
  } finally {
    await context.close();
  }
}

/**
 * browser.first_verify_slow_phone (decision 043): a first-time visitor's verification on a
 * slow phone, click to verdict (goal ≤ 5 s) and the whole journey, each beside the same journey
 * unthrottled in the same run, turn about. The group is small (depth 1), as when decision 043 measured
 * 23.5 s. The server is warm (its compressed artifacts made); the browser is always a first visitor.
 */
export async function runFirstVerify({ runs, build = true }: { runs: number; build?: boolean }): Promise<BenchEntry[]> {
  if (build) execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-first-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, WEB_DIST: webDist });
  assertChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const post = (body: object) =>
      fetch(`${server.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post({ id_info: 'first visit', bio_info: BIO });
    await post({ id_info: 'someone else', bio_info: 'someone else entirely' });
    await warmCompressedArtifacts(server.url);

    const slow: Journey[] = [];
    const fast: Journey[] = [];
    for (let run = 0; run < runs; run++) {
      slow.push(await firstVisit(browser, server.url, true));
      fast.push(await firstVisit(browser, server.url, false));
      console.error(`  run ${run + 1}: slow phone ${describe(slow.at(-1)!)}; unthrottled ${describe(fast.at(-1)!)}`);
    }
    const label = `the same first visit unthrottled, same run (goal on the slow phone: ≤ ${GOAL_MS} ms)`;
    return [
      entry('browser.first_verify_slow_phone', 'ms', 'lower', pick(slow, 'clickToVerdict'), pick(fast, 'clickToVerdict'), label),
      entry(
        'browser.first_verify_slow_phone_journey',
        'ms',
        'lower',
        pick(slow, 'whole'),
        pick(fast, 'whole'),
        'the same whole journey unthrottled, same run (3 s reading and 5 s typing included in both)',
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const describe = (j: Journey) =>
  `${j.clickToVerdict.toFixed(0)} ms click→verdict, ${j.whole.toFixed(0)} ms in all, artifacts in ${(j.artifactsDoneAfterClick / 1000).toFixed(1)} s after the click`;
const pick = (journeys: Journey[], key: 'clickToVerdict' | 'whole') => journeys.map((journey) => journey[key]);

/** The server compresses each artifact on its first request (decision 043): have that done before measuring. */
async function warmCompressedArtifacts(url: string) {
  const { depth } = (await (await fetch(`${url}/members`)).json()) as { depth: number };
  for (const name of [`semaphore-${depth}.wasm`, `semaphore-${depth}.zkey`]) {
    for (let tries = 0; ; tries++) {
      const reply = await fetch(`${url}/artifacts/${name}`, { headers: { 'accept-encoding': 'br' } });
      await reply.arrayBuffer();
      if (reply.headers.get('content-encoding') === 'br') break;
      if (tries > 600) throw new Error(`${name}: no brotli copy after a minute`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
