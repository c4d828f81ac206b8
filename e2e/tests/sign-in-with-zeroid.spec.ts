import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
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
 * an unregistered biometric comes back as access_denied; with response_mode=form_post the code is
 * posted to the site's callback.
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
