import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { newClientMetadata, openStorage } from '../server.ts';
import { freePort, startServerProcess } from '../../apps/server/test/server-process.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { decodeQrDataUrl } from '../../e2e/tests/qr.ts';
import { loadBareProver } from '../browser/bare-prover-in-page.ts';
import { journeyMarksContext } from '../browser/journey-marks.ts';
import { randomIdentities, SeedTree, seedIdentities } from '../seed-identities.ts';
import { entry, median, type BenchEntry } from '../stats.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8.execute',
  'v8',
  'disabled-by-default-devtools.timeline',
  'netlog',
  'toplevel',
  'disabled-by-default-v8.cpu_profiler',
];

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
    const zeroIdOrigin = new URL(server.url).origin;
    const journeyContext = () => journeyMarksContext(browser, { origin: siteOrigin, zeroId: zeroIdOrigin });

    const bio = `bench oidc iris ${Date.now()}`;
    /**
     * Where one journey's time went, on the browser's clock: to the screen ready (its details in),
     * to the button pressed (Playwright types at once; a person would type here while the prover
     * loads), the screen's OPRF round and proof, and back to the site.
     */
    type Phases = { screen: number; typed: number; proved: number; back: number };
    const returningPhases: Phases[] = [];
    const phasesOf = (seen: Map<string, number>): Phases | undefined => {
      const [click, details, submitted, proved, signedIn] = [
        'click',
        'sign-in-details',
        'sign-in-submitted',
        'sign-in-proved',
        'signed-in',
      ].map((name) => seen.get(name));
      if ([click, details, submitted, proved, signedIn].some((at) => at === undefined)) return undefined;
      return { screen: details! - click!, typed: submitted! - details!, proved: proved! - submitted!, back: signedIn! - proved! };
    };
    const signIn = async (
      page: Page,
      { next, seen }: { next: (name: string) => Promise<number>; seen: Map<string, number> },
      phases?: Phases[],
    ) => {
      seen.clear();
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
      const split = phasesOf(seen);
      if (phases && split) phases.push(split);
      return journey;
    };

    /**
     * browser.phone_sign_in_journey (decision 029): the same sign-in proved on a phone. The screen's
     * "Verify on my phone instead" shows a QR code; the phone (390 px, its own browser context, a
     * returning phone: its caches filled by the untimed first turn) opens its link, proves, and
     * shows a code, which is typed on the screen; the screen goes back to the site. Timed on the
     * browser's clock from the QR code's load on the screen to the site's signed-in page.
     */
    const phoneSignIn = async (page: Page, phonePage: Page, next: (name: string) => Promise<number>) => {
      await page.goto(siteUrl);
      const shown = next('qr');
      const signedIn = next('signed-in');
      await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
      await page.getByRole('button', { name: 'Verify on my phone instead', exact: true }).click();
      const qr = page.locator('img.qr');
      await qr.waitFor();
      const link = decodeQrDataUrl((await qr.getAttribute('src'))!);
      if (!link) throw new Error('the QR code did not decode');
      await phonePage.goto(link);
      // The phone's screen names the site once it has the session's sign-in: only then is its form the sign-in's.
      await phonePage.getByTestId('sign-in-site').waitFor();
      await phonePage.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
      await phonePage.getByRole('button', { name: 'Verify User', exact: true }).click();
      const code = await phonePage
        .getByTestId('confirmation-code')
        .textContent({ timeout: 60_000 })
        .catch(async (failure: Error) => {
          throw new Error(`the phone shows no code: ${await phonePage.locator('main').innerText()}`, { cause: failure });
        });
      await page.getByLabel('Your phone shows a code. Type it here to continue on this screen:').fill(code ?? '');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await page.locator('#signed-in').waitFor({ timeout: 60_000 });
      const journey = (await signedIn) - (await shown);
      if (!(journey > 0 && journey < 60_000)) throw new Error(`implausible phone journey time ${journey} ms`);
      return journey;
    };

    const returning = await journeyContext();
    const page = await returning.context.newPage();
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Enter ID:', { exact: true }).fill(`bench-oidc-${Date.now()}`);
    await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText(/did:key:z6Mk/).waitFor({ timeout: 60_000 });
    await signIn(page, returning); // untimed: fills the HTTP cache and the Cache API
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phonePage = await phoneContext.newPage();
    await phoneSignIn(page, phonePage, returning.next); // untimed: the phone's caches

    const barePage = await returning.context.newPage();
    await barePage.goto(server.url);
    const { depth, prove: proveBare } = await loadBareProver(barePage, server.url, members);

    // Journeys and bare proofs take turns, so a slower spell of this shared machine weighs on all.
    const journeys: number[] = [];
    const cold: number[] = [];
    const bare: number[] = [];
    const onPhone: number[] = [];
    // BENCH_PROFILE=<dir>: one extra turn of each journey under Chromium's tracing (marks zeroid:*,
    // requests, the profiler), written there and left out of the samples: tracing slows what it traces.
    const profileDir = process.env.BENCH_PROFILE;
    if (profileDir) {
      mkdirSync(profileDir, { recursive: true });
      const traced = async (name: string, journey: () => Promise<number>) => {
        await browser.startTracing(undefined, { categories: TRACE_CATEGORIES });
        const took = await journey();
        writeFileSync(path.join(profileDir, `${name}.json`), await browser.stopTracing());
        console.error(`  traced ${name}: ${took.toFixed(0)} ms (not a sample)`);
      };
      await traced('returning', () => signIn(page, returning));
      const fresh = await journeyContext();
      const coldPage = await fresh.context.newPage();
      await traced('cold', () => signIn(coldPage, fresh));
      await fresh.context.close();
      await page.bringToFront();
      await traced('phone', () => phoneSignIn(page, phonePage, returning.next));
    }
    // The machine is shared: its load average, sampled each turn, goes into the rows' labels.
    const load: number[] = [];
    for (let run = 0; run < runs; run++) {
      load.push(loadavg()[0]!);
      journeys.push(await signIn(page, returning, returningPhases));
      const fresh = await journeyContext();
      const coldPage = await fresh.context.newPage();
      cold.push(await signIn(coldPage, fresh));
      await fresh.context.close();
      await page.bringToFront();
      onPhone.push(await phoneSignIn(page, phonePage, returning.next));
      await barePage.bringToFront();
      bare.push(await proveBare(run));
    }
    const ms = (samples: number[]) => samples.map((x) => x.toFixed(0)).join(', ');
    console.error(
      `  load average ${load.map((x) => x.toFixed(1)).join(', ')}; oidc login journeys ${ms(journeys)} ms; cold ${ms(cold)} ms; on a phone ${ms(onPhone)} ms; bare generateProof ${ms(bare)} ms (depth ${depth}); ` +
        `journey/bare turn by turn ${journeys.map((j, i) => (j / bare[i]!).toFixed(2)).join(', ')}`,
    );
    const phase = (key: keyof Phases) => `${key} ${median(returningPhases.map((p) => p[key])).toFixed(0)}`;
    console.error(
      `  returning journey's phases, medians of ${returningPhases.length} (ms): ${(['screen', 'typed', 'proved', 'back'] as const).map(phase).join(', ')}`,
    );
    const loadNote = `; shared 2-core machine, 1-min load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the turns`;
    const baseline = `bare \`generateProof\` at depth ${depth} in another tab, artifacts in memory`;
    return [
      entry(
        'browser.oidc_login_journey',
        'ms',
        'lower',
        journeys,
        bare,
        `${baseline} (the journey from the site's "Sign in" click event to its signed-in page's DOMContentLoaded, a returning browser: app and artifacts cached${loadNote})`,
      ),
      entry(
        'browser.oidc_login_journey_cold',
        'ms',
        'lower',
        cold,
        bare,
        `${baseline} (the same journey in a browser with empty caches: app, prover and artifacts downloaded within it${loadNote})`,
      ),
      entry(
        'browser.phone_sign_in_journey',
        'ms',
        'lower',
        onPhone,
        journeys,
        `browser.oidc_login_journey, same run (the cross-device sign-in from the screen's QR code loaded to the site's signed-in page: the phone opens the link, proves, shows a code typed on the screen${loadNote})`,
      ),
    ];
  } finally {
    await browser.close();
    site.kill();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
