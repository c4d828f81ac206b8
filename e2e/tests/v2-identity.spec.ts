import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Request } from '@playwright/test';
import { verifyThroughUi } from './journeys.ts';
import { startProcess, stopProcess } from './processes.ts';
import { removeTempRoot, tempRoot } from './temp-root.ts';

/**
 * Decision 056's migration promise in Chromium: a person registered under protocol v2, before v3 existed,
 * verifies with no action. `e2e/seed/seed-v2-identity.ts` registers them through the server's storage
 * the way the old web app derived them (v2 OPRF outputs, v2 commitment, ID tag and DID) before the
 * server first starts on that data directory with that key; the page then derives the v3 commitment
 * first, does not find it, falls back to the v2 round and proves with the v2 identity.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const root = tempRoot('zeroid-e2e-v2-');
const serverUrl = `http://127.0.0.1:${Number(process.env.E2E_V2_PORT ?? 18192)}`;
test.use({ baseURL: serverUrl });
const tag = randomUUID();
const person = { id: `V2-PASSPORT-${tag}`, bio: `v2 minutiae ${tag} 7 11 13` };
/** Holds a v2 and a v3 identity of the same texts (the zero-knowledge path allowed it before decision 073). */
const both = { id: `BOTH-PASSPORT-${tag}`, bio: `both minutiae ${tag} 17 19 23` };
let seeded: { privateKey: string; commitment: string; did: string; bothDids: string[] };
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  const dataDir = path.join(root, 'server');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'e2e/seed/seed-v2-identity.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_ID: person.id,
      SEED_BIO: person.bio,
      SEED_BOTH_ID: both.id,
      SEED_BOTH_BIO: both.bio,
    },
  });
  seeded = JSON.parse(stdout) as typeof seeded;
  server = await startProcess(
    ['--import', 'tsx', 'apps/server/src/server.ts'],
    {
      HOST: '127.0.0.1',
      PORT: new URL(serverUrl).port,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      OPRF_PRIVATE_KEY: seeded.privateKey,
      WEB_DIST: path.join(repoRoot, 'apps/web/dist'),
      PUBLIC_URL: serverUrl,
    },
    `${serverUrl}/healthz`,
  );
});

test.afterAll(async () => {
  if (server) await stopProcess(server);
  removeTempRoot(root);
});

test('a v2 identity made before the change still verifies, in Chromium', async ({ page }) => {
  const rounds: Request[] = [];
  page.on('request', (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/oprf' && rounds.push(request));
  expect((await page.request.get(`/did/${seeded.did}`)).status()).toBe(200);

  await verifyThroughUi(page, person.bio);
  await expect(page).toHaveURL(/\/user-authorised$/);

  // The v3 round first (its commitment is not in the group), then the v2 round whose identity is.
  const suites = rounds.map((request) => (request.postDataJSON() as { suite?: string }).suite);
  expect(suites).toEqual(['ZeroID-OPRFv3-BabyJubJub-Poseidon2', undefined]);
  const group = (await (await page.request.get('/members')).json()) as { size: number };
  // The seeded person, and the v2 and v3 identities of the person who holds both.
  expect(group.size).toBe(3);
});

test("the v2 round's code failing to load reads as a message to act on, keeps the input, and the next try verifies", async ({ page }) => {
  // Decision 066: protocol v2's round loads on demand; a dropped connection or a redeploy can fail it.
  const chunk = /\/assets\/oprf-round-[^/]*\.js$/;
  await page.context().route(chunk, (route) => route.abort());
  await verifyThroughUi(page, person.bio);
  await expect(page.getByRole('alert')).toHaveText(
    'Part of ZeroID could not be loaded (the connection dropped, or ZeroID was just updated). Please try again; if it keeps failing, reload the page.',
  );
  await expect(page.getByPlaceholder('Touch to verify!', { exact: true })).toHaveValue(person.bio);

  await page.context().unroute(chunk);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page).toHaveURL(/\/user-authorised$/);
});

test('a v2 holder who registers again moves to v3 in one step: the new DID shown with the one it replaces, which is deactivated', async ({
  page,
}) => {
  await page.goto('/register');
  await page.getByLabel('Enter ID:', { exact: true }).fill(person.id);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(person.bio);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText('It replaces the identity you registered before')).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('.replaced-did code')).toHaveText(seeded.did);
  const did = await page.locator('.did code').textContent();
  expect(did).toMatch(/^did:key:z6Mk/);
  expect(did).not.toBe(seeded.did);
  expect((await page.request.get(`/did/${seeded.did}`)).status()).toBe(410);
  expect((await page.request.get(`/did/${did}`)).status()).toBe(200);
  // Never neither: the person verifies at once, now with the v3 identity.
  await verifyThroughUi(page, person.bio);
  await expect(page).toHaveURL(/\/user-authorised$/);
});

test('a person who holds a v2 and a v3 identity erases both at once in Chromium: both DIDs deactivated, and no longer verifies', async ({
  page,
}) => {
  expect(seeded.bothDids).toHaveLength(2);
  for (const did of seeded.bothDids) expect((await page.request.get(`/did/${did}`)).status()).toBe(200);
  await page.goto('/erase');
  await page.getByLabel('Enter ID:', { exact: true }).fill(both.id);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(both.bio);
  await page.getByRole('button', { name: 'Delete my identity' }).click();
  await page.getByRole('button', { name: 'Yes, delete it for good' }).click();
  await expect(page.getByText('Your identity has been deleted.')).toBeVisible({ timeout: 60_000 });
  for (const did of seeded.bothDids) expect((await page.request.get(`/did/${did}`)).status()).toBe(410);
  await verifyThroughUi(page, both.bio);
  await expect(page).toHaveURL(/\/invalid-did$/);
});

test('the moved identity erases in Chromium, and then no longer verifies', async ({ page }) => {
  // Last in this file: it deletes the seeded person, moved to v3 by the test before (its v2 DID stays deactivated).
  await page.goto('/erase');
  await page.getByLabel('Enter ID:', { exact: true }).fill(person.id);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(person.bio);
  await page.getByRole('button', { name: 'Delete my identity' }).click();
  await page.getByRole('button', { name: 'Yes, delete it for good' }).click();
  await expect(page.getByText('Your identity has been deleted.')).toBeVisible({ timeout: 60_000 });
  expect((await page.request.get(`/did/${seeded.did}`)).status()).toBe(410);

  await verifyThroughUi(page, person.bio);
  await expect(page).toHaveURL(/\/invalid-did$/);
});
