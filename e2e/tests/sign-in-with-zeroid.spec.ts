import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { expectNoViolations } from './axe.ts';
import { holdPosts, registerThroughUi, startSiteSignIn, typePhoneCodeOnScreen } from './journeys.ts';
import { freePort, startProcess, stopProcess } from './processes.ts';
import { decodeQrDataUrl } from './qr.ts';

/**
 * Sign in with ZeroID (decision 023) in Chromium: the example site (examples/relying-party, on
 * openid-client) sends the person to ZeroID's sign-in screen, which names the site; the proof is made
 * in the page's prover and the site shows "Signed in as <pseudonym>": the same one on every visit;
 * a typo keeps the person on the screen to try again (decision 051), and only Cancel comes back as
 * access_denied; at 390 px the screen has one column of buttons of one width, no "on my phone"
 * offer, and its progress line under the buttons; with response_mode=form_post the code is
 * posted to the site's callback (decision 028). Then the same on a phone (decision 029): the sign-in
 * screen shows a QR code, the phone names the site, proves and shows a code, which the person types on
 * the screen (decision 035), and the screen goes back to the site with the same pseudonym.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
let site: ChildProcess;
let siteUrl: string;
/** The pseudonym the person got at the example site on the sign-in screen itself. */
let pseudonym: string;
const BIO = 'sign in e2e: right index finger';

// The phone's journey expects the pseudonym of the first one.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const port = await freePort();
  siteUrl = `http://localhost:${port}`;
  const env = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' };
  await promisify(execFile)(
    process.execPath,
    [
      'apps/server/scripts/oidc.js',
      'add-client',
      '--id',
      'e2e-site',
      '--name',
      'The Example Site',
      '--redirect-uri',
      `${siteUrl}/callback`,
      '--public',
    ],
    { cwd: repoRoot, env },
  );
  site = await startProcess(
    ['examples/relying-party/server.js'],
    { ZEROID_URL: baseURL, CLIENT_ID: 'e2e-site', PORT: String(port) },
    siteUrl,
    10_000,
  );
});

test.afterAll(async () => {
  if (site) await stopProcess(site);
});

test('a person signs in at a site with a proof; a typo keeps them on the screen with their input, and the right biometric then signs them in with the same pseudonym; Cancel is access_denied', async ({
  page,
}) => {
  await registerThroughUi(page, 'SIGN-IN-E2E-1', BIO);
  const field = page.getByPlaceholder('Touch to verify!', { exact: true });

  const openSignIn = async () => {
    await startSiteSignIn(page, siteUrl);
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/signin/[A-Za-z0-9_-]+$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to The Example Site');
    await expect(page.getByTestId('sign-in-site')).toContainText(`Sign in to The Example Site (${new URL(siteUrl).host})`);
  };
  const verify = async (bio: string) => {
    await field.fill(bio);
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  };

  await openSignIn();
  await verify(BIO);
  // Signed in, the site's session remembers the person: its home page says so.
  await page.waitForURL(`${siteUrl}/`);
  const first = await page.locator('#signed-in').textContent();
  expect(first).toMatch(/^Signed in as [A-Za-z0-9_-]{43}$/);
  pseudonym = first!;
  // The site keeps its session, as a site would: "Home" and a reload show the person signed in, at a
  // desktop's width and a phone's. Its cookie is an opaque id no script can read, not sent on another
  // site's POST.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page.locator('#signed-in')).toHaveText(first!);
    await page.reload();
    await expect(page.locator('#signed-in')).toHaveText(first!);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  const cookies = await page.context().cookies(siteUrl);
  expect(cookies.map(({ name, httpOnly, sameSite }) => ({ name, httpOnly, sameSite }))).toEqual([
    { name: 'sid', httpOnly: true, sameSite: 'Lax' },
  ]);

  // A typo (decision 051): still on ZeroID's screen, told so, the input as typed; then the right one.
  await openSignIn();
  const signInUrl = page.url();
  await verify('sign in e2e: right index fingre');
  await expect(page.getByRole('alert')).toHaveText('Not recognised, try again. 4 tries left.');
  expect(page.url()).toBe(signInUrl);
  await expect(field).toHaveValue('sign in e2e: right index fingre');
  await expect(page.getByRole('button', { name: 'Verify User', exact: true })).toBeEnabled();
  await verify(BIO);
  await page.waitForURL(`${siteUrl}/`);
  await expect(page.locator('#signed-in')).toHaveText(first!);

  // Cancel, on purpose: the site hears access_denied.
  await openSignIn();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.waitForURL(`${siteUrl}/callback?**`);
  await expect(page.locator('#not-signed-in')).toHaveText('Not signed in: access_denied');

  // response_mode=form_post (decision 028): the provider's page posts the code to the site's callback.
  // Chromium enforces our CSP's form-action, so the post arrives only if that page may post there.
  const callback = `${siteUrl}/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(`${baseURL}/oidc/auth`);
  authorize.search = new URLSearchParams({
    client_id: 'e2e-site',
    redirect_uri: callback,
    response_type: 'code',
    response_mode: 'form_post',
    scope: 'openid',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  let posted: { method: string; form: URLSearchParams } | undefined;
  await page.route(callback, async (route) => {
    posted = { method: route.request().method(), form: new URLSearchParams(route.request().postData() ?? '') };
    await route.fulfill({ contentType: 'text/html', body: '<p id="form-posted">Posted</p>' });
  });
  await page.goto(authorize.href);
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill('sign in e2e: right index finger');
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page.locator('#form-posted')).toHaveText('Posted');
  expect(posted?.method).toBe('POST');
  expect(posted?.form.get('state')).toBe(state);
  const token = await fetch(`${baseURL}/oidc/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: posted?.form.get('code') ?? '',
      redirect_uri: callback,
      client_id: 'e2e-site',
      code_verifier: verifier,
    }),
  });
  expect(token.status).toBe(200);
  const { id_token: idToken } = (await token.json()) as { id_token: string };
  const claims = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as { sub: string };
  expect(`Signed in as ${claims.sub}`).toBe(first);
});

test('on a phone: the sign-in screen shows a QR code, the phone names the site, proves and shows a code the person types on the screen, which goes back to the site with the same pseudonym; a cancel or an unregistered biometric on the phone is access_denied', async ({
  page,
  browser,
}) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const mobile = await phone.newPage();
  const host = new URL(siteUrl).host;

  /** The site's "Sign in", then "on my phone": the phone opens the QR code and sees the site and the screen's code. */
  const startOnPhone = async () => {
    await startSiteSignIn(page, siteUrl);
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/signin/[A-Za-z0-9_-]+$`));
    await page.getByRole('button', { name: 'Verify on my phone instead', exact: true }).click();
    const img = page.locator('img.qr');
    // Scrolled into view once it shows: on a 1280 x 720 screen it starts below the fold.
    await expect(img).toBeInViewport({ ratio: 0.99 });
    const link = decodeQrDataUrl((await img.getAttribute('src'))!);
    expect(link).toMatch(new RegExp(`^${baseURL}/user-verification\\?session=[0-9a-f]{32}$`));
    await mobile.goto(link!);
    await expect(mobile.getByTestId('sign-in-site')).toContainText(`Sign in to The Example Site (${host}) on the other screen`);
  };
  const proveOnPhone = async (bio: string) => {
    await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
    await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  };

  await startOnPhone();
  await expectNoViolations(page, 'sign-in screen with its QR code');
  await expectNoViolations(mobile, 'sign-in on the phone');
  await proveOnPhone(BIO);
  await expect(mobile.getByTestId('phone-sign-in-outcome')).toHaveText(
    'To finish signing in to The Example Site, type this code on the other screen:',
  );
  await expectNoViolations(mobile, 'sign-in on the phone, done');
  // The screen waits for its person to type the phone's code (decision 035), then goes back to the site.
  await expect(page.getByLabel('Your phone shows a code. Type it here to continue on this screen:')).toBeVisible();
  await expectNoViolations(page, 'sign-in screen asking for the phone code');
  await typePhoneCodeOnScreen(mobile, page);
  await page.waitForURL(`${siteUrl}/`);
  await expect(page.locator('#signed-in')).toHaveText(pseudonym);

  await startOnPhone();
  await mobile.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(mobile.getByTestId('phone-sign-in-outcome')).toHaveText('The Example Site was told that you did not sign in.');
  await page.waitForURL(`${siteUrl}/callback?**`);
  await expect(page.locator('#not-signed-in')).toHaveText('Not signed in: access_denied');

  await startOnPhone();
  await proveOnPhone('sign in e2e: nobody registered this on a phone');
  await expect(mobile.getByTestId('phone-sign-in-outcome')).toHaveText('The Example Site was told that you did not sign in.');
  await page.waitForURL(`${siteUrl}/callback?**`);
  await expect(page.locator('#not-signed-in')).toHaveText('Not signed in: access_denied');
  await phone.close();
});

test('at 390 px on a phone: the sign-in screen names the site, offers no "on my phone", has buttons of one width with the progress line under them, and counts a typo with its input kept', async ({
  browser,
}) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(siteUrl);
  await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to The Example Site');
  const verify = page.getByRole('button', { name: 'Verify User', exact: true });
  const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
  await expect(cancel).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Verify on my phone instead' })).toHaveCount(0);

  // One column of buttons, one width; Cancel secondary (white), Verify User primary (filled).
  const [main, other] = [(await verify.boundingBox())!, (await cancel.boundingBox())!];
  expect(Math.round(other.width)).toBe(Math.round(main.width));
  expect(other.x).toBe(main.x);
  expect(other.y).toBeGreaterThan(main.y + main.height - 1);
  const background = (button: typeof verify) => button.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await background(cancel)).toBe('rgb(255, 255, 255)');
  expect(await background(verify)).not.toBe('rgb(255, 255, 255)');

  // While the try runs, the progress line is under both buttons, not between them.
  const held = await holdPosts(page, '**/oprf');
  const field = page.getByPlaceholder('Touch to verify!', { exact: true });
  await field.fill('sign in e2e: nobody registered this');
  await verify.click();
  const progress = page.locator('form p.progress');
  await expect(progress).toBeVisible();
  expect((await progress.boundingBox())!.y).toBeGreaterThanOrEqual(other.y + other.height);
  held.release();

  await expect(page.getByRole('alert')).toHaveText('Not recognised, try again. 4 tries left.');
  await expect(field).toHaveValue('sign in e2e: nobody registered this');
  await expectNoViolations(page, 'sign-in screen at 390 px after a typo');
  await cancel.click();
  await page.waitForURL(`${siteUrl}/callback?**`);
  await expect(page.locator('#not-signed-in')).toHaveText('Not signed in: access_denied');
  await phone.close();
});
