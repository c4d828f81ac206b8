import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { NODE_ADMISSION_ENV, SERVER_SECRET_ENV } from '../../apps/server/test/threshold-processes.ts';
import { registerThroughUi, verifyThroughUi } from './journeys.ts';
import { decodeQrDataUrl } from './qr.ts';
import { freePort, startProcess as startEntry, stopProcess } from './processes.ts';
import { removeTempRoot, tempRoot } from './temp-root.ts';

/**
 * Threshold mode in Chromium (decision 021): a key split 2-of-3, three real OPRF node processes, and
 * a server in threshold mode serving the built app. Every round is admitted by the server first
 * (decision 032). A phone completes a desktop's QR session through the nodes. With node 2 stopped,
 * the browser registers and verifies through nodes 1 and 3 and names node 2 in its console; with
 * node 3 stopped too, the page says too few nodes answered and keeps what was typed.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const root = tempRoot('zeroid-e2e-threshold-');
const children: ChildProcess[] = [];
// A fixed port, so the page's relative links and the nodes' CORS_ORIGINS know the server's origin.
const serverUrl = `http://127.0.0.1:${Number(process.env.E2E_THRESHOLD_PORT ?? 18191)}`;
test.use({ baseURL: serverUrl });
const nodes: { url: string; child: ChildProcess }[] = [];

/** A TypeScript entry under tsx on `port` (a free one if none), ready once its /healthz answers 200. */
async function startProcess(entry: string, env: Record<string, string>, port?: number): Promise<{ url: string; child: ChildProcess }> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startEntry(
    ['--import', 'tsx', entry],
    { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', ...env },
    `${url}/healthz`,
  );
  children.push(child);
  return { url, child };
}

test.beforeAll(async () => {
  // A fresh key (a ristretto255 scalar below 2^252, so below the group order), split 2-of-3 by the CLI.
  const key = randomBytes(32);
  key[31]! &= 0x0f;
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/oprf.ts', 'split', '--threshold', '2', '--shares', '3', '--out', path.join(root, 'shares')],
    { cwd: repoRoot, env: { ...process.env, OPRF_PRIVATE_KEY: key.toString('base64url'), DATA_DIR: path.join(root, 'unused') } },
  );
  nodes.push(
    ...(await Promise.all(
      [1, 2, 3].map((i) =>
        startProcess('apps/server/src/oprf-node/main.ts', {
          ...NODE_ADMISSION_ENV,
          DATA_DIR: path.join(root, 'shares', `node-${i}`),
          CORS_ORIGINS: serverUrl,
        }),
      ),
    )),
  );
  await startProcess(
    'apps/server/src/server.ts',
    {
      ...SERVER_SECRET_ENV,
      DATA_DIR: path.join(root, 'server'),
      WEB_DIST: path.join(repoRoot, 'apps/web/dist'),
      PUBLIC_URL: serverUrl,
      OPRF_NODES: nodes.map((node) => node.url).join(','),
      OPRF_THRESHOLD: '2',
      DERIVATION_THREADS: '0',
      PROOF_VERIFIER_THREADS: '1',
    },
    Number(new URL(serverUrl).port),
  );
});

test.afterAll(async () => {
  await Promise.all(children.map(stopProcess));
  removeTempRoot(root);
});

test("threshold mode: a phone completes the desktop's QR session, every OPRF round admitted by the server", async ({ page, browser }) => {
  const admissions: string[] = [];
  await page.goto('/generate-qr');
  const img = page.locator('img.qr');
  await expect(img).toBeVisible();
  const link = decodeQrDataUrl((await img.getAttribute('src'))!)!;
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const mobile = await phone.newPage();
  mobile.on('request', (request) => {
    if (request.url().endsWith('/oprf/admission')) admissions.push(request.method());
  });
  const bio = `threshold phone ${randomUUID()}`;
  await registerThroughUi(mobile, `PHONE-THRESHOLD-${randomUUID()}`, bio);
  await verifyThroughUi(mobile, bio, link);
  await expect(mobile).toHaveURL(/\/user-authorised$/);
  // The desktop moves on once its person types the code the phone shows (decision 035).
  const shown = (await mobile.getByTestId('confirmation-code').textContent())!;
  await page.getByLabel('Your phone shows a code. Type it here to continue on this screen:').fill(shown);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page).toHaveURL(/\/user-authorised$/);
  // Registration: the biometric and the ID under v3, and the biometric under v2 (a v2 identity to
  // move?, decision 073); verification: the biometric.
  expect(admissions).toEqual(['POST', 'POST', 'POST', 'POST']);
  await phone.close();
});

test('threshold mode: register and verify through 2 of 3 nodes, then a clear message when too few answer', async ({ page }) => {
  const tag = randomUUID();
  const bio = `threshold minutiae ${tag}`;
  const warnings: string[] = [];
  page.on('worker', (worker) => worker.on('console', (message) => warnings.push(message.text())));

  await stopProcess(nodes[1]!.child);
  const did = await registerThroughUi(page, `ID-THRESHOLD-${tag}`, bio);
  expect(did).toMatch(/^did:key:z6Mk/);
  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/user-authorised$/);
  expect(warnings.some((text) => text.startsWith(`OPRF node 2 (${nodes[1]!.url})`))).toBe(true);

  const csp = (await page.request.get('/')).headers()['content-security-policy'];
  expect(csp).toContain(`connect-src 'self' ${nodes.map((node) => node.url).join(' ')};`);

  await stopProcess(nodes[2]!.child);
  await verifyThroughUi(page, bio);
  await expect(page.getByRole('alert')).toContainText('Too few of the OPRF nodes answered correctly');
  await expect(page.getByPlaceholder('Touch to verify!', { exact: true })).toHaveValue(bio);
  await expect(page).toHaveURL(/\/user-verification$/);
});
