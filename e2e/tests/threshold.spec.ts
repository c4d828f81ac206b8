import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { registerThroughUi, verifyThroughUi } from './journeys.ts';

/**
 * Threshold mode in Chromium (decision 021): a key split 2-of-3, three real OPRF node processes, and
 * a server in threshold mode serving the built app. With node 2 stopped, the browser registers and
 * verifies through nodes 1 and 3 and names node 2 in its console; with node 3 stopped too, the page
 * says too few nodes answered and keeps what was typed.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const root = mkdtempSync(path.join(tmpdir(), 'zeroid-e2e-threshold-'));
const children: ChildProcess[] = [];
// A fixed port, so the page's relative links and the nodes' CORS_ORIGINS know the server's origin.
const serverUrl = `http://127.0.0.1:${Number(process.env.E2E_THRESHOLD_PORT ?? 18191)}`;
test.use({ baseURL: serverUrl });
const nodes: { url: string; child: ChildProcess }[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** Starts a TypeScript entry under tsx and waits until `url` + /healthz answers 200. */
async function startProcess(entry: string, env: Record<string, string>, port?: number): Promise<{ url: string; child: ChildProcess }> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  for (const deadline = Date.now() + 90_000; ;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}:\n${output.join('')}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    if (Date.now() > deadline) throw new Error(`${entry} not ready:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

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
        startProcess('apps/server/src/oprf-node/main.ts', { DATA_DIR: path.join(root, 'shares', `node-${i}`), CORS_ORIGINS: serverUrl }),
      ),
    )),
  );
  await startProcess(
    'apps/server/src/server.ts',
    {
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
  await Promise.all(children.map(stop));
  rmSync(root, { recursive: true, force: true });
});

test('threshold mode: register and verify through 2 of 3 nodes, then a clear message when too few answer', async ({ page }) => {
  const tag = randomUUID();
  const bio = `threshold minutiae ${tag}`;
  const warnings: string[] = [];
  page.on('worker', (worker) => worker.on('console', (message) => warnings.push(message.text())));

  await stop(nodes[1]!.child);
  const did = await registerThroughUi(page, `ID-THRESHOLD-${tag}`, bio);
  expect(did).toMatch(/^did:key:z6Mk/);
  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/user-authorised$/);
  expect(warnings.some((text) => text.startsWith(`OPRF node 2 (${nodes[1]!.url})`))).toBe(true);

  const csp = (await page.request.get('/')).headers()['content-security-policy'];
  expect(csp).toContain(`connect-src 'self' ${nodes.map((node) => node.url).join(' ')};`);

  await stop(nodes[2]!.child);
  await verifyThroughUi(page, bio);
  await expect(page.getByRole('alert')).toContainText('Too few of the OPRF nodes answered correctly');
  await expect(page.getByPlaceholder('Touch to verify!', { exact: true })).toHaveValue(bio);
  await expect(page).toHaveURL(/\/user-verification$/);
});
