import { execFile, type ChildProcess } from 'node:child_process';
import { request as forward, createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { startEmbeddedPostgres, type RunningPostgres } from '../../apps/server/test/embedded-postgres.ts';
import { registerThroughUi, startSiteSignIn } from './journeys.ts';
import { freePort, startProcess, stopProcess } from './processes.ts';
import { removeTempRoot, tempRoot } from './temp-root.ts';

/**
 * Sign in with ZeroID at many sites from one Chromium (decision 036): two server processes
 * on one PostgreSQL behind one address that sends each request to the next process in turn (a load
 * balancer), and two example sites on openid-client. One browser signs in at A, at B, at A again,
 * then a second person at A, each time straight from the site to ZeroID's sign-in screen and back,
 * with that site's own pseudonym; then signs out at A as RP-Initiated Logout 1.0 says.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const root = tempRoot('zeroid-e2e-many-sites-');
// A fixed port: the issuer (PUBLIC_URL) that both processes share, and the address the browser uses.
const issuer = `http://127.0.0.1:${Number(process.env.E2E_MANY_SITES_PORT ?? 18192)}`;
test.use({ baseURL: issuer });
test.describe.configure({ mode: 'serial' });

let postgres: RunningPostgres;
const children: ChildProcess[] = [];
let balancer: Server;
const sites: Record<'a' | 'b', string> = { a: '', b: '' };
const PEOPLE = { first: 'many sites e2e: the first thumb', second: 'many sites e2e: the second thumb' };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await startEmbeddedPostgres();
  const env = {
    DATABASE_URL: postgres.url,
    DATA_DIR: path.join(root, 'server'),
    PUBLIC_URL: issuer,
    WEB_DIST: path.join(repoRoot, 'apps/web/dist'),
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    DERIVATION_THREADS: '0',
    PROOF_VERIFIER_THREADS: '1',
  };
  // The first process creates the database's OPRF key file, which the second then shares.
  const ports: number[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    children.push(
      await startProcess(
        ['--import', 'tsx', 'apps/server/src/server.ts'],
        { ...env, PORT: String(port) },
        `http://127.0.0.1:${port}/healthz`,
      ),
    );
    ports.push(port);
  }
  let next = 0;
  balancer = createServer((incoming, outgoing) => {
    const port = ports[next++ % ports.length]!;
    const upstream = forward(
      { host: '127.0.0.1', port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (reply) => {
        outgoing.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => balancer.listen(Number(new URL(issuer).port), '127.0.0.1', resolve));

  for (const name of ['a', 'b'] as const) {
    const port = await freePort();
    sites[name] = `http://localhost:${port}`;
    await promisify(execFile)(
      process.execPath,
      [
        'apps/server/scripts/oidc.js',
        'add-client',
        '--id',
        `site-${name}`,
        '--name',
        `Site ${name.toUpperCase()}`,
        '--redirect-uri',
        `${sites[name]}/callback`,
        '--post-logout-redirect-uri',
        `${sites[name]}/signed-out`,
        '--public',
      ],
      { cwd: repoRoot, env: { ...process.env, ...env } },
    );
    children.push(
      await startProcess(
        ['examples/relying-party/server.js'],
        { ZEROID_URL: issuer, CLIENT_ID: `site-${name}`, PORT: String(port) },
        sites[name],
        10_000,
      ),
    );
  }
});

test.afterAll(async () => {
  await Promise.all(children.map(stopProcess));
  await new Promise((resolve) => balancer?.close(resolve));
  await postgres?.stop();
  removeTempRoot(root);
});

/** The site's "Sign in with ZeroID": straight to ZeroID's sign-in screen (never a logout page), a proof, and back. */
async function signIn(page: Page, site: string, bio: string): Promise<string> {
  const visited: string[] = [];
  const record = (frame: { url(): string }) => visited.push(frame.url());
  page.on('framenavigated', record);
  await startSiteSignIn(page, site);
  await expect(page).toHaveURL(new RegExp(`^${issuer}/signin/[A-Za-z0-9_-]+$`));
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await page.waitForURL(`${site}/`);
  page.off('framenavigated', record);
  // The pages of ZeroID the browser showed: the sign-in screen (its router may report it twice), nothing else.
  const atZeroId = new Set(visited.filter((url) => url.startsWith(issuer)).map((url) => new URL(url).pathname));
  expect([...atZeroId]).toEqual([expect.stringMatching(/^\/signin\/[A-Za-z0-9_-]+$/)]);
  const text = (await page.locator('#signed-in').textContent()) ?? '';
  expect(text).toMatch(/^Signed in as [A-Za-z0-9_-]{43}$/);
  return text.slice('Signed in as '.length);
}

test('one browser signs in at A, B and A again, each with its own pseudonym, a second person at A with theirs, then signs out at A', async ({
  page,
}) => {
  await registerThroughUi(page, 'MANY-SITES-E2E-1', PEOPLE.first);
  await registerThroughUi(page, 'MANY-SITES-E2E-2', PEOPLE.second);
  const firstAtA = await signIn(page, sites.a, PEOPLE.first);
  const firstAtB = await signIn(page, sites.b, PEOPLE.first);
  expect(firstAtB).not.toBe(firstAtA);
  expect(await signIn(page, sites.a, PEOPLE.first)).toBe(firstAtA);
  const secondAtA = await signIn(page, sites.a, PEOPLE.second);
  expect(new Set([firstAtA, firstAtB, secondAtA]).size).toBe(3);

  // Sign out at A: ZeroID's page confirms by itself and returns to A's registered URI with A's state.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await page.waitForURL(`${sites.a}/signed-out?state=*`);
  await expect(page.locator('#signed-out')).toHaveText(
    "You are signed out of this site, and ZeroID has forgotten this site's tokens for you.",
  );
  // The site's session ended with it: its home page offers to sign in again.
  await page.goto(sites.a);
  await expect(page.getByRole('link', { name: 'Sign in with ZeroID' })).toBeVisible();
  // And the next sign-in at B is as it always is.
  expect(await signIn(page, sites.b, PEOPLE.first)).toBe(firstAtB);
});
