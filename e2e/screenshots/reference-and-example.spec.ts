import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { freePort, startProcess, stopProcess } from '../tests/processes.ts';
import { decodeQrDataUrl } from '../tests/qr.ts';

/**
 * `npm run screenshots`: the API reference (/docs), the example site of
 * examples/relying-party (ready, signed in, and not registered with ZeroID) and ZeroID's sign-in
 * screen (as it opens, after a typo, and, on a desktop, with its QR code and the phone that opened
 * it), at both sizes.
 */
const out = path.resolve(import.meta.dirname, '../../docs/screenshots');
const repoRoot = path.resolve(import.meta.dirname, '../..');
const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const sites: ChildProcess[] = [];
let siteUrl: string;
let strangerUrl: string;
const BIO = 'screenshot: left thumb, ridge loop whorl 4 8 15';

test.beforeAll(async ({ request }) => {
  const [port, strangerPort] = [await freePort(), await freePort()];
  siteUrl = `http://localhost:${port}`;
  strangerUrl = `http://localhost:${strangerPort}`;
  const env = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' };
  const args = ['add-client', '--id', 'screenshot-site', '--name', 'Example site', '--redirect-uri', `${siteUrl}/callback`, '--public'];
  await promisify(execFile)(process.execPath, ['apps/server/scripts/oidc.js', ...args], { cwd: repoRoot, env });
  sites.push(
    await startProcess(
      ['examples/relying-party/server.js'],
      { ZEROID_URL: baseURL, CLIENT_ID: 'screenshot-site', PORT: String(port) },
      siteUrl,
    ),
    // Never registered with ZeroID: its home page says so.
    await startProcess(
      ['examples/relying-party/server.js'],
      { ZEROID_URL: baseURL, CLIENT_ID: 'not-registered', PORT: String(strangerPort) },
      strangerUrl,
    ),
  );
  await request.post('/register', { data: { id_info: 'screenshot person', bio_info: BIO } });
});

test.afterAll(async () => {
  await Promise.all(sites.map(stopProcess));
});

for (const [size, viewport] of Object.entries(sizes)) {
  test(`reference and example site at ${size} size`, async ({ browser }) => {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const shot = (name: string, fullPage = true) => page.screenshot({ path: path.join(out, `${size}-${name}.png`), fullPage });

    await page.goto('/api-docs');
    await expect(page.getByRole('heading', { name: /ZeroID API/ })).toBeVisible();
    await shot('api-reference', false);
    await page
      .getByRole('button', { name: /POST \/verify/ })
      .first()
      .click();
    await expect(page.getByText('Verify with the biometric alone').first()).toBeVisible();
    await page.locator('#operations-Registration_and_verification-post_verify').scrollIntoViewIfNeeded();
    await shot('api-reference-verify', false);

    await page.goto(siteUrl);
    await expect(page.getByRole('link', { name: 'Sign in with ZeroID' })).toBeVisible();
    await shot('example-site');
    await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Example site');
    await shot('sign-in');
    const field = page.getByPlaceholder('Touch to verify!', { exact: true });
    await field.fill('screenshot: left thumb, a typo');
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Not recognised, try again.');
    await shot('sign-in-typo');
    if (size === 'desktop') {
      // The phone option (offered on a desktop only): the QR code, and the phone that opened it.
      await page.getByRole('button', { name: 'Verify on my phone instead', exact: true }).click();
      const img = page.locator('img.qr');
      await expect(img).toBeInViewport({ ratio: 0.99 });
      await shot('sign-in-qr', false);
      const phone = await browser.newContext({ viewport: sizes.phone, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
      const mobile = await phone.newPage();
      await mobile.goto(decodeQrDataUrl((await img.getAttribute('src'))!)!);
      await expect(mobile.getByTestId('sign-in-site')).toContainText('Sign in to Example site');
      await mobile.screenshot({ path: path.join(out, 'phone-sign-in-on-phone.png'), fullPage: true });
      await phone.close();
      // Back to this screen's own form for the right biometric.
      await page.goto(siteUrl);
      await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
    }
    await field.fill(BIO);
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
    await expect(page.locator('#signed-in')).toContainText('Signed in as');
    await shot('example-site-signed-in');

    await page.goto(strangerUrl);
    await expect(page.locator('#setup-problem')).toContainText('ZeroID does not know this site');
    await shot('example-site-not-registered');
    await context.close();
  });
}
