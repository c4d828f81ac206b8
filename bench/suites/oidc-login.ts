import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { newClientMetadata, openStorage } from '../server.ts';
import { freePort, startServerProcess } from '../../apps/server/test/server-process.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { loadBareProver } from '../browser/bare-prover-in-page.ts';
import { randomIdentities, SeedTree, seedIdentities } from '../seed-identities.ts';
import { entry, type BenchEntry } from '../stats.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');

/**
 * browser.oidc_login_journey (decisions 023 and 028), in Debian's Chromium: the example site
 * (examples/relying-party, openid-client) against a real server holding `members` identities. One
 * journey runs from the click on the site's "Sign in with ZeroID" to its "Signed in as …" page: the
 * redirects to ZeroID, the sign-in screen loading (its prover worker, the artifacts, the curve), the
 * OPRF round, the proof for the site's scope, the check, the code and the token exchange. Playwright
 * types the biometric and presses the button; the journey is timed by the browser itself, from the
 * click event's time stamp on the site's page to the DOMContentLoaded of its signed-in page (both on
 * the browser's clock), as the baseline is timed inside its page, so neither carries Playwright's
 * own latency. Each measurement runs in the tab in front (a background tab's frames and timers are
 * throttled).
 * - `browser.oidc_login_journey`: a returning browser (the web app and the artifacts already in its
 *   HTTP cache and Cache API, from a first, untimed sign-in), as a person who signed in before;
 * - `browser.oidc_login_journey_cold`: a browser with empty caches every time (a new context): the
 *   web app, the prover and the 4 MB of artifacts are downloaded and compiled within the journey.
 * The baseline of both is bare `generateProof` at the same depth in another tab of the same browser,
 * artifacts in memory and the curve built, taking turns with the journeys.
 */
export async function runOidcLogin({
  runs,
  members,
  build = true,
}: {
  runs: number;
  members: number;
  build?: boolean;
}): Promise<BenchEntry[]> {
  if (build) execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-oidc-'));
  const sitePort = await freePort();
  const siteUrl = `http://localhost:${sitePort}`;
  const storage = await openStorage({ dataDir });
  await seedIdentities(storage, new SeedTree(), randomIdentities(members - 1));
  const client = newClientMetadata({ id: 'bench-site', redirectUris: [`${siteUrl}/callback`], name: 'Bench site', public: true });
  await storage.oidc.addClient(client.client_id, JSON.stringify(client));
  await storage.close();
  const server = await startServerProcess(
    { DATA_DIR: dataDir, WEB_DIST: webDist, RATE_LIMIT_PER_MINUTE: '0' },
    { readyTimeoutMs: 180_000 },
  );
  const site = spawn(process.execPath, ['examples/relying-party/server.js'], {
    cwd: root,
    env: { ...process.env, ZEROID_URL: server.url, CLIENT_ID: 'bench-site', PORT: String(sitePort) },
    stdio: 'ignore',
  });
  assertChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    for (
      let i = 0;
      !(await fetch(siteUrl).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 100) throw new Error('the example site did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const siteOrigin = new URL(siteUrl).origin;
    /** A context whose pages report the journey's two instants on the browser's clock. */
    const journeyContext = async () => {
      const context = await browser.newContext();
      const marks = new Map<string, (at: number) => void>();
      await context.exposeFunction('__journeyMark', (name: string, at: number) => marks.get(name)?.(at));
      await context.addInitScript((origin: string) => {
        if (location.origin !== origin) return;
        const mark = (globalThis as unknown as { __journeyMark: (name: string, at: number) => void }).__journeyMark;
        addEventListener(
          'click',
          (event) => {
            if ((event.target as Element | null)?.closest?.('#sign-in')) mark('click', performance.timeOrigin + event.timeStamp);
          },
          true,
        );
        addEventListener('DOMContentLoaded', () => {
          if (document.getElementById('signed-in')) mark('signed-in', performance.timeOrigin + performance.now());
        });
      }, siteOrigin);
      const next = (name: string) => new Promise<number>((resolve) => marks.set(name, resolve));
      return { context, next };
    };

    const bio = `bench oidc iris ${Date.now()}`;
    const signIn = async (page: Page, next: (name: string) => Promise<number>) => {
      await page.bringToFront();
      await page.goto(siteUrl);
      const clicked = next('click');
      const signedIn = next('signed-in');
      await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
      await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
      await page.getByRole('button', { name: 'Verify User', exact: true }).click();
      await page.locator('#signed-in').waitFor({ timeout: 60_000 });
      const journey = (await signedIn) - (await clicked);
      if (!(journey > 0 && journey < 60_000)) throw new Error(`implausible journey time ${journey} ms`);
      return journey;
    };

    const returning = await journeyContext();
    const page = await returning.context.newPage();
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Enter ID:', { exact: true }).fill(`bench-oidc-${Date.now()}`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 60_000 });
    await signIn(page, returning.next); // untimed: fills the HTTP cache and the Cache API

    const barePage = await returning.context.newPage();
    await barePage.goto(server.url);
    const { depth, prove: proveBare } = await loadBareProver(barePage, server.url, members);

    // Journeys and bare proofs take turns, so a slower spell of this shared machine weighs on all.
    const journeys: number[] = [];
    const cold: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < runs; run++) {
      journeys.push(await signIn(page, returning.next));
      const fresh = await journeyContext();
      cold.push(await signIn(await fresh.context.newPage(), fresh.next));
      await fresh.context.close();
      await barePage.bringToFront();
      bare.push(await proveBare(run));
    }
    const ms = (samples: number[]) => samples.map((x) => x.toFixed(0)).join(', ');
    console.error(
      `  oidc login journeys ${ms(journeys)} ms; cold ${ms(cold)} ms; bare generateProof ${ms(bare)} ms (depth ${depth}); ` +
        `journey/bare turn by turn ${journeys.map((j, i) => (j / bare[i]!).toFixed(2)).join(', ')}`,
    );
    const baseline = `bare \`generateProof\` at depth ${depth} in another tab, artifacts in memory`;
    return [
      entry(
        'browser.oidc_login_journey',
        'ms',
        'lower',
        journeys,
        bare,
        `${baseline} (the journey from the site's "Sign in" click event to its signed-in page's DOMContentLoaded, a returning browser: app and artifacts cached)`,
      ),
      entry(
        'browser.oidc_login_journey_cold',
        'ms',
        'lower',
        cold,
        bare,
        `${baseline} (the same journey in a browser with empty caches: app, prover and artifacts downloaded within it)`,
      ),
    ];
  } finally {
    await browser.close();
    site.kill();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
