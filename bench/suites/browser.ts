import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { Artifacts, openStorage } from '../server.ts';
import { startServerProcess } from '../../apps/server/test/server-process.ts';
import { randomIdentities, SeedTree, seedIdentities } from '../seed-identities.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { entry, type BenchEntry } from '../stats.ts';
import { loadBareProver } from '../browser/bare-prover-in-page.ts';
import { BASELINE_HEADER } from '../browser/baseline-header.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');

/**
 * From the outcome page back to verification inside the app (the worker stays warm), then one
 * journey, timed in the page from the click event to the navigation to the verdict (the Navigation
 * API), as the bare proof is timed in the page. Playwright's own click and URL polling add some
 * 50 ms around it; that time is returned too, for the log.
 */
export async function verifyOnce(page: Page, bio: string): Promise<{ inPage: number; driven: number }> {
  if (page.url().endsWith('/user-authorised')) await page.getByRole('link', { name: 'Back to the start' }).click();
  else await page.goto('/');
  await page.getByRole('button', { name: 'Verification', exact: true }).click();
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
  await page.evaluate(() => {
    const marks = window as unknown as { journeyClick?: number; journeyVerdict?: number };
    marks.journeyClick = marks.journeyVerdict = undefined;
    document.addEventListener('click', () => (marks.journeyClick ??= performance.now()), { capture: true, once: true });
    navigation.addEventListener('navigate', () => (marks.journeyVerdict ??= performance.now()), { once: true });
  });
  const started = Date.now();
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await page.waitForURL(/\/user-authorised$/, { timeout: 60_000 });
  const driven = Date.now() - started;
  const inPage = await page.evaluate(() => {
    const { journeyClick, journeyVerdict } = window as unknown as { journeyClick: number; journeyVerdict: number };
    return journeyVerdict - journeyClick;
  });
  return { inPage, driven };
}

/**
 * browser.*, in Debian's Chromium against a real server holding `members` identities (depth 10 at
 * 1,000): the warm verification journey (click to verdict: OPRF, members, challenge, proof, verify)
 * against bare `generateProof` in the same page; artifact bytes of a second verification; and the
 * gzipped JavaScript the welcome page loads.
 */
export async function runBrowser({ runs, members }: { runs: number; members: number }): Promise<BenchEntry[]> {
  // Always the web app of this checkout: a build left from older code would measure that code.
  execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-browser-'));
  const storage = await openStorage({ dataDir });
  await seedIdentities(storage, new SeedTree(), randomIdentities(members - 1));
  await storage.close();
  const server = await startServerProcess({ DATA_DIR: dataDir, WEB_DIST: webDist });
  assertChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const artifacts = await Artifacts.load();
    const page = await browser.newPage({ baseURL: server.url });

    // Welcome page JavaScript, as the browser fetched it, gzipped, over fresh pages with empty caches.
    const welcome: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ baseURL: server.url });
      const fresh = await context.newPage();
      const scripts = new Map<string, Promise<Buffer>>();
      fresh.on('response', (response) => {
        // A prefetched script may still be arriving when the context closes: its body is not needed then.
        const body = response.body();
        body.catch(() => undefined);
        if (response.request().resourceType() === 'script') scripts.set(response.url(), body);
      });
      // Up to the load event: what the first paint needs. The idle prefetch of decision 043 (the
      // screens' code and the prover, fetched once the page is painted and the browser idle) is not
      // counted; with it, networkidle saw some 388 KB, the prover worker's 279 KB the most of it.
      await fresh.goto('/', { waitUntil: 'load' });
      const bodies = await Promise.all([...scripts.values()]);
      welcome.push(bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) / 1024);
      await context.close();
    }
    const allJs = execFileSync('find', [path.join(webDist, 'assets'), '-name', '*.js'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const allKb = allJs.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0) / 1024;

    // Register, then verify: the first verification downloads the artifacts, later ones find them cached.
    const bio = `bench iris ${Date.now()}`;
    await page.goto('/register');
    await page.getByLabel('Enter ID:', { exact: true }).fill(`bench-${Date.now()}`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 60_000 });
    const artifactBytes: number[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/artifacts/') && response.request().headers()[BASELINE_HEADER] === undefined)
        void response.body().then(
          (b) => artifactBytes.push(b.length),
          () => undefined,
        );
    });
    await verifyOnce(page, bio); // cold
    const firstBytes = artifactBytes.reduce((a, b) => a + b, 0);
    artifactBytes.length = 0;
    // Bare generateProof in the same page, same depth, artifacts in memory.
    const { depth, prove: proveBare } = await loadBareProver(page, server.url, members);

    // Journey and bare proof take turns, so a slower spell of this shared machine weighs on both.
    const journeys: number[] = [];
    const driven: number[] = [];
    const secondBytes: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < runs; run++) {
      const journey = await verifyOnce(page, bio);
      journeys.push(journey.inPage);
      driven.push(journey.driven);
      secondBytes.push(artifactBytes.reduce((a, b) => a + b, 0));
      artifactBytes.length = 0;
      bare.push(await proveBare(run));
    }
    console.error(
      `  journeys ${journeys.map((j) => j.toFixed(0)).join(', ')} ms in the page (${driven.join(', ')} ms driven by Playwright); bare generateProof ${bare.map((b) => b.toFixed(0)).join(', ')} ms (depth ${depth})`,
    );

    const sizeOf = (name: string) => artifacts.get(name)!.bytes;
    const perProofWithUrls = sizeOf(`semaphore-${depth}.wasm`) + sizeOf(`semaphore-${depth}.zkey`);
    console.error(`  first verification downloaded ${firstBytes} artifact bytes`);
    return [
      entry(
        'browser.verify_journey',
        'ms',
        'lower',
        journeys,
        bare,
        `bare \`generateProof\` at depth ${depth} in the same page, artifacts in memory (both timed in the page; the journey from the click event to the verdict's navigation)`,
      ),
      entry(
        'browser.second_verify_artifact_bytes',
        'bytes',
        'lower',
        secondBytes,
        [perProofWithUrls],
        'snarkjs given artifact URLs: downloads them for every proof',
      ),
      entry('web.welcome_js_gzip_kb', 'KB', 'lower', welcome, [allKb], 'all of the app’s JavaScript, gzipped (the prover included)'),
    ];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
