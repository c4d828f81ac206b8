import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { registerThroughUi, verifyThroughUi } from './journeys.ts';
import { startProcess, stopProcess } from './processes.ts';
import { removeTempRoot, tempRoot } from './temp-root.ts';

/**
 * The guess budget in Chromium (decision 074), with its limits on: a server whose bucket holds 5
 * evaluations and gains one back every 10 s. A registration takes all five (its two v3 rounds, the v2
 * round that looks for an identity to move, and POST /register's two); the verification right
 * after it is refused before anything is evaluated, the screen counts down the server's Retry-After,
 * and pressing Verify again when the countdown ends is served.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const root = tempRoot('zeroid-e2e-budget-');
// A fixed port, so the page's relative links know the server's origin.
const serverUrl = `http://127.0.0.1:${Number(process.env.E2E_BUDGET_PORT ?? 18194)}`;
test.use({ baseURL: serverUrl });
let server: ChildProcess;

test.beforeAll(async () => {
  server = await startProcess(
    ['--import', 'tsx', 'apps/server/src/server.ts'],
    {
      HOST: '127.0.0.1',
      PORT: new URL(serverUrl).port,
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(root, 'server'),
      WEB_DIST: path.join(repoRoot, 'apps/web/dist'),
      PUBLIC_URL: serverUrl,
      RATE_LIMIT_PER_MINUTE: '60',
      GUESSES_BEFORE_DELAY: '5',
      GUESS_REFILL_PER_HOUR: '360',
    },
    `${serverUrl}/healthz`,
  );
});

test.afterAll(async () => {
  await stopProcess(server);
  removeTempRoot(root);
});

test('a person refused for a moment is served when the countdown ends', async ({ page }) => {
  test.setTimeout(180_000);
  const bio = `budget e2e ${Date.now()}`;
  await registerThroughUi(page, `ID-${Date.now()}`, bio);
  const verifications: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/verify') verifications.push(response.status());
  });
  const reservations: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/reservations') reservations.push(response.status());
  });
  await verifyThroughUi(page, bio);
  await expect(page.getByRole('alert')).toContainText('Too many guesses from your network.');
  const timer = page.getByRole('timer');
  await expect(timer).toContainText(/You can try again in 0:[0-2]\d\./);
  // Refused whole, before anything was evaluated: no proof was sent.
  expect(reservations).toEqual([429]);
  expect(verifications).toEqual([]);
  // The button comes back when the countdown ends, and one press is served.
  await expect(timer).toBeHidden({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page).toHaveURL(/\/user-authorised$/, { timeout: 60_000 });
  expect(reservations).toEqual([429, 200]);
  expect(verifications).toEqual([200]);
});
