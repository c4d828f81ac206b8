import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { registerThroughUi } from './journeys.ts';

/**
 * Sign in with ZeroID (decision 023) in Chromium: the example site (examples/relying-party, on
 * openid-client) sends the person to ZeroID's sign-in screen, which names the site; the proof is made
 * in the page's prover and the site shows "Signed in as <pseudonym>": the same one on every visit;
 * an unregistered biometric comes back as access_denied.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
let site: ChildProcess;
let siteUrl: string;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

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
  site = spawn(process.execPath, ['examples/relying-party/server.js'], {
    cwd: repoRoot,
    env: { ...process.env, ZEROID_URL: baseURL, CLIENT_ID: 'e2e-site', PORT: String(port) },
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(siteUrl).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the example site did not start');
});

test.afterAll(() => {
  site?.kill();
});

test('a person signs in at a site with a proof, gets the same pseudonym twice, and an unregistered biometric is denied', async ({
  page,
}) => {
  await registerThroughUi(page, 'SIGN-IN-E2E-1', 'sign in e2e: right index finger');

  const signIn = async (bio: string) => {
    await page.goto(siteUrl);
    await page.getByRole('link', { name: 'Sign in with ZeroID' }).click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/signin/[A-Za-z0-9_-]+$`));
    await expect(page.getByTestId('sign-in-site')).toContainText(`Sign in to The Example Site (${new URL(siteUrl).host})`);
    await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
    await page.waitForURL(`${siteUrl}/callback?**`);
  };

  await signIn('sign in e2e: right index finger');
  const first = await page.locator('#signed-in').textContent();
  expect(first).toMatch(/^Signed in as [A-Za-z0-9_-]{43}$/);
  await signIn('sign in e2e: right index finger');
  await expect(page.locator('#signed-in')).toHaveText(first!);

  await signIn('sign in e2e: nobody registered this');
  await expect(page.locator('#not-signed-in')).toHaveText('Not signed in: access_denied');
});
