import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { newClientMetadata } from '../../apps/server/src/services/openid/client-metadata.ts';
import { openStorage } from '../../apps/server/src/storage/open-storage.ts';
import { freePort, startServerProcess } from '../../apps/server/test/server-process.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { loadBareProver } from '../browser/bare-prover-in-page.ts';
import { randomIdentities, SeedTree, seedIdentities } from '../seed-identities.ts';
import { entry, type BenchEntry } from '../stats.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');

/**
 * browser.oidc_login_journey (decision 023), in Debian's Chromium: the example site
 * (examples/relying-party, openid-client) against a real server holding `members` identities. One
 * journey runs from the click on the site's "Sign in with ZeroID" to its "Signed in as …" page:
 * the redirect to ZeroID, the sign-in screen loading (its prover worker, the artifacts from the HTTP
 * cache), the OPRF round, the proof for the site's scope, the check, the code and the token exchange.
 * It is timed by Playwright across the navigations (typing the biometric takes a few ms), beside bare
 * `generateProof` at the same depth in another tab of the same browser, artifacts in memory.
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
    const context = await browser.newContext();
    const page = await context.newPage();
    const bio = `bench oidc iris ${Date.now()}`;
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Enter ID:', { exact: true }).fill(`bench-oidc-${Date.now()}`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 60_000 });

    const signIn = async () => {
      await page.goto(siteUrl);
      const started = performance.now();
      await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
      await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
      await page.getByRole('button', { name: 'Verify User', exact: true }).click();
      await page.locator('#signed-in').waitFor({ timeout: 60_000 });
      return performance.now() - started;
    };
    await signIn(); // cold: the artifacts' first download

    const barePage = await context.newPage();
    await barePage.goto(server.url);
    const { depth, prove: proveBare } = await loadBareProver(barePage, server.url, members);

    // Journey and bare proof take turns, so a slower spell of this shared machine weighs on both.
    const journeys: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < runs; run++) {
      journeys.push(await signIn());
      bare.push(await proveBare(run));
    }
    console.error(
      `  oidc login journeys ${journeys.map((j) => j.toFixed(0)).join(', ')} ms; bare generateProof ${bare.map((b) => b.toFixed(0)).join(', ')} ms (depth ${depth})`,
    );
    return [
      entry(
        'browser.oidc_login_journey',
        'ms',
        'lower',
        journeys,
        bare,
        `bare \`generateProof\` at depth ${depth} in another tab, artifacts in memory (the journey from the site's "Sign in" click to its signed-in page, driven by Playwright)`,
      ),
    ];
  } finally {
    await browser.close();
    site.kill();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
