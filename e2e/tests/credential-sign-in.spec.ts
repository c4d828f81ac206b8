import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expectNoRequestCarries } from './requests-carry-none.ts';
import { expect, test, type Page, type Request } from '@playwright/test';
import { issueCredential } from '@zeroid/protocol/credential';
import { baseURL } from '../playwright.config.ts';
import { expectNoViolations } from './axe.ts';
import { E2E_ISSUER_KEY, E2E_ISSUER_PUBLIC_KEY } from './issuers.ts';
import { holdPosts, registerThroughUi, startSiteSignIn, typePhoneCodeOnScreen } from './journeys.ts';
import { freePort, startProcess, stopProcess } from './processes.ts';
import { decodeQrDataUrl } from './qr.ts';

/**
 * Sign in with ZeroID tells a site which organisation vouches for a person's ID (decision 089), in
 * Chromium through the example site: a person registered with a pasted credential signs in at a site
 * that asks (scope `credential`); the screen says the site asks, proves the credential in the worker
 * with progress shown and the button disabled, says what the site will be told, and the site shows
 * "Credential from Example University" with the same pseudonym as a sign-in that does not ask, which
 * shows no credential. A plain identity asked the same is told no credential was found, and the site
 * that no credential was shared. No request carries the ID, the credential or a biometric. Then the
 * same on a phone (decision 029): the phone says the site asks, proves the credential and says what the site will be told,
 * and the screen goes back to the site with it. A person who unticks "Tell <site> which organisation vouches for my ID",
 * on the screen or on the phone, signs in with the same pseudonym: nothing of the credential is looked for or sent, and
 * the site shows that none was shared.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
let site: ChildProcess;
let siteUrl: string;
/** The person registered with a credential by the first test, for the phone's: their biometric and pseudonym at the site. */
const person = { bio: '', pseudonym: '' };

// The phone's journey signs in the first one's person.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const port = await freePort();
  siteUrl = `http://localhost:${port}`;
  await promisify(execFile)(
    process.execPath,
    [
      'apps/server/scripts/oidc.js',
      'add-client',
      '--id',
      'e2e-credential-site',
      '--name',
      'The Credential Site',
      '--redirect-uri',
      `${siteUrl}/callback`,
      '--public',
    ],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' } },
  );
  site = await startProcess(
    ['examples/relying-party/server.js'],
    { ZEROID_URL: baseURL, CLIENT_ID: 'e2e-credential-site', PORT: String(port) },
    siteUrl,
    10_000,
  );
});

test.afterAll(async () => {
  if (site) await stopProcess(site);
});

const PROOF_POSTS = '**/signin/*/proof';

/** Every text the sign-in screen's status lines show, kept in the page as they appear (a stage may last only a moment). */
async function recordStatusLines(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { statusLines: string[] }).statusLines = seen;
    new MutationObserver(() => {
      for (const line of document.querySelectorAll('[role="status"]')) {
        const text = line.textContent ?? '';
        if (text && seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const statusLines = (page: Page) => page.evaluate(() => (globalThis as unknown as { statusLines: string[] }).statusLines);

/** The site's "Sign in and show who vouches for my ID", or its /login?ask=credential for a person it knows already. */
async function startCredentialSignIn(page: Page): Promise<void> {
  await page.goto(siteUrl);
  if (await page.locator('#signed-in').isVisible()) await page.goto(`${siteUrl}/login?ask=credential`);
  else await page.getByRole('link', { name: 'Sign in and show who vouches for my ID' }).click();
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/signin/[A-Za-z0-9_-]+$`));
}

/** Types the biometric and presses "Verify User" with the proof's POST held: returns the held request's body and the status lines seen until then. */
async function verifyHeld(page: Page, bio: string) {
  const held = await holdPosts(page, PROOF_POSTS);
  const posted = page.waitForRequest((r) => r.method() === 'POST' && /\/signin\/[^/]+\/proof$/.test(new URL(r.url()).pathname));
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
  const button = page.getByRole('button', { name: 'Verify User', exact: true });
  await button.click();
  await expect(button).toBeDisabled();
  const request = await posted;
  const lines = await statusLines(page);
  await expect(button).toBeDisabled();
  return {
    body: request.postDataJSON() as { proof: { nullifier: string }; credentialProof?: Record<string, unknown> },
    lines,
    release: async () => {
      held.release();
      await page.waitForURL(`${siteUrl}/`);
      await page.unroute(PROOF_POSTS);
    },
  };
}

test('a site that asks is told the issuer of a registered credential, and only then; a plain identity shares none; nothing secret is sent', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const recorded: Request[] = [];
  page.context().on('request', (request) => recorded.push(request));
  await recordStatusLines(page);
  const tag = `${Date.now()}`;
  const id = `Credential sign-in ${tag}`;
  const line = issueCredential(E2E_ISSUER_KEY, id, { expires: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) });
  const bio = `credential sign-in bio ${tag}`;
  person.bio = bio;
  const plainId = `Plain sign-in ${tag}`;
  const plainBio = `plain sign-in bio ${tag}`;

  // Registered with the pasted credential, proven in zero knowledge (decision 085).
  await page.goto('/register');
  await page.getByLabel('Enter ID:', { exact: true }).fill(line);
  await expect(page.getByText('Credential from Example University', { exact: false })).toBeVisible();
  await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByText(/did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+/)).toBeVisible({ timeout: 120_000 });

  // The site asks: the screen says so before anything is typed, proves the credential, and says what the site will be told.
  await startCredentialSignIn(page);
  await expect(page.getByTestId('sign-in-credential')).toContainText('The Credential Site asks which organisation vouches for your ID.');
  await expectNoViolations(page, 'sign-in screen of a site that asks for a credential');
  const askedFrom = recorded.length;
  const asked = await verifyHeld(page, bio);
  expect(asked.lines).toContain('Computing the proof of your credential on this device…');
  await expect(page.getByTestId('sign-in-credential-outcome')).toHaveText(
    'The Credential Site will be told that Example University vouches for your ID.',
  );
  const credentialProof = asked.body.credentialProof;
  expect(Object.keys(credentialProof ?? {}).sort()).toEqual(['issuer', 'merkleTreeDepth', 'merkleTreeRoot', 'nullifier', 'points']);
  expect(credentialProof?.issuer).toBe(E2E_ISSUER_PUBLIC_KEY);
  // One nullifier for both proofs: what ties the credential to the person signing in.
  expect(credentialProof?.nullifier).toBe(asked.body.proof.nullifier);
  await asked.release();
  // One bucket of the credential tree, the one the sign-in asked /members for (decision 088).
  const bucketsOf = (pathname: string) =>
    recorded
      .slice(askedFrom)
      .map((r) => new URL(r.url()))
      .filter((url) => url.pathname === pathname && url.searchParams.has('bucket'))
      .map((url) => url.searchParams.get('bucket'));
  expect(bucketsOf('/credential-members')).toHaveLength(1);
  expect(bucketsOf('/credential-members')).toEqual(bucketsOf('/members'));
  await expect(page.locator('#credential')).toHaveText('Credential from Example University');
  const pseudonym = await page.locator('#signed-in').textContent();
  expect(pseudonym).toMatch(/^Signed in as [A-Za-z0-9_-]{43}$/);
  person.pseudonym = pseudonym!;
  // The site keeps what it was told: a reload shows it again.
  await page.reload();
  await expect(page.locator('#credential')).toHaveText('Credential from Example University');

  // The same person, the site not asking: the same pseudonym, no credential proved, sent or shown.
  await startSiteSignIn(page, siteUrl);
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/signin/[A-Za-z0-9_-]+$`));
  await expect(page.getByTestId('sign-in-site')).toBeVisible();
  await expect(page.getByTestId('sign-in-credential')).toHaveCount(0);
  const notAsked = await verifyHeld(page, bio);
  expect(notAsked.body.credentialProof).toBeUndefined();
  expect(notAsked.lines).not.toContain('Looking for the credential your ID was registered with…');
  await notAsked.release();
  await expect(page.locator('#signed-in')).toHaveText(pseudonym!);
  await expect(page.locator('#credential')).toHaveCount(0);

  // A plain identity, the site asking: the screen says none was found, and the site that none was shared.
  await registerThroughUi(page, plainId, plainBio);
  await startCredentialSignIn(page);
  await expect(page.getByTestId('sign-in-credential')).toBeVisible();
  const plain = await verifyHeld(page, plainBio);
  expect(plain.body.credentialProof).toBeUndefined();
  expect(plain.lines).toContain('Looking for the credential your ID was registered with…');
  await expect(page.getByTestId('sign-in-credential-outcome')).toHaveText(
    'No credential was found for your identity: The Credential Site will not be told of one.',
  );
  await plain.release();
  await expect(page.locator('#signed-in')).not.toHaveText(pseudonym!);
  await expect(page.locator('#credential')).toHaveText('No credential was shared: ZeroID vouches only for your pseudonym.');

  // The credential tree was asked for buckets only (decision 089), and no request carried a secret.
  const buckets = recorded.filter((r) => new URL(r.url()).pathname === '/credential-members');
  expect(buckets.length).toBeGreaterThan(0);
  for (const r of buckets) expect(new URL(r.url()).searchParams.get('bucket') ?? '').toMatch(/^[0-9a-f]{0,4}$/);
  await expectNoRequestCarries(recorded, [line, id, bio, plainId, plainBio]);
});

test('a person who unticks "Tell the site which organisation vouches for my ID" signs in with the same pseudonym and shares no credential: no bucket asked, no credential proof sent', async ({
  page,
}) => {
  test.setTimeout(240_000);
  expect(person.pseudonym, 'the first test registers the person').not.toBe('');
  const recorded: Request[] = [];
  page.context().on('request', (request) => recorded.push(request));
  await recordStatusLines(page);
  await startCredentialSignIn(page);
  // The site asked, so the box starts ticked; the person unticks it before anything is typed.
  const share = page.getByRole('checkbox', { name: 'Tell The Credential Site which organisation vouches for my ID', exact: true });
  await expect(share).toBeChecked();
  await share.uncheck();
  await expectNoViolations(page, 'sign-in screen of a site that asks for a credential, the person declining');

  // A missed try (a biometric never registered) keeps the choice as the person made it.
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(`never registered ${Date.now()}`);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Not recognised, try again.');
  await expect(share).not.toBeChecked();
  await expect(share).toBeEnabled();

  const declined = await verifyHeld(page, person.bio);
  // Not to be changed while the proof is on its way.
  await expect(share).toBeDisabled();
  await expect(share).not.toBeChecked();
  expect(declined.body.credentialProof).toBeUndefined();
  expect(declined.lines).not.toContain('Looking for the credential your ID was registered with…');
  await expect(page.getByTestId('sign-in-credential-outcome')).toHaveText(
    'You chose not to tell The Credential Site which organisation vouches for your ID: it will not be told of a credential.',
  );
  await declined.release();
  await expect(page.locator('#signed-in')).toHaveText(person.pseudonym);
  await expect(page.locator('#credential')).toHaveText('No credential was shared: ZeroID vouches only for your pseudonym.');

  // Nothing of the credential was looked for or sent.
  expect(recorded.filter((r) => new URL(r.url()).pathname === '/credential-members').map((r) => r.url())).toEqual([]);
  const proofPosts = recorded.filter((r) => r.method() === 'POST' && /\/signin\/[^/]+\/proof$/.test(new URL(r.url()).pathname));
  expect(proofPosts).toHaveLength(1);
  for (const r of recorded) expect(r.postData() ?? '', `${r.method()} ${new URL(r.url()).pathname}`).not.toContain('credentialProof');
});

test('on a phone: the phone says the site asks before anything is typed, proves the credential too, says what the site will be told, and the screen goes back to the site with it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  expect(person.bio, 'the first test registers the person').not.toBe('');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const mobile = await phone.newPage();
  // A phone that has opened ZeroID before: its membership prover is in its cache, so the session (20 s
  // in this configuration) is left the OPRF round, both proofs and the credential circuit's download.
  const warmed = mobile.waitForResponse((r) => /\/artifacts\/semaphore-\d+\.zkey$/.test(new URL(r.url()).pathname));
  await mobile.goto('/user-verification');
  await (await warmed).finished();
  await startCredentialSignIn(page);
  await expect(page.getByTestId('sign-in-credential')).toBeVisible();
  await page.getByRole('button', { name: 'Verify on my phone instead', exact: true }).click();
  const link = decodeQrDataUrl((await page.locator('img.qr').getAttribute('src'))!);
  await mobile.goto(link!);
  // The phone says the site asks before anything is typed, as the screen did.
  await expect(mobile.getByTestId('sign-in-credential')).toContainText('The Credential Site asks which organisation vouches for your ID.');
  const posted = mobile.waitForRequest(
    (r) => r.method() === 'POST' && /^\/sessions\/[0-9a-f]{32}\/sign-in$/.test(new URL(r.url()).pathname),
  );
  await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(person.bio);
  await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  const body = (await posted).postDataJSON() as { proof: { nullifier: string }; credentialProof?: { issuer: string; nullifier: string } };
  expect(body.credentialProof?.issuer).toBe(E2E_ISSUER_PUBLIC_KEY);
  expect(body.credentialProof?.nullifier).toBe(body.proof.nullifier);
  await expect(mobile.getByTestId('sign-in-credential-outcome')).toHaveText(
    'The Credential Site will be told that Example University vouches for your ID.',
  );
  await typePhoneCodeOnScreen(mobile, page);
  await page.waitForURL(`${siteUrl}/`);
  await expect(page.locator('#signed-in')).toHaveText(person.pseudonym);
  await expect(page.locator('#credential')).toHaveText('Credential from Example University');
  await phone.close();
});

test('on a phone: a person who unticks the box signs in with the same pseudonym, the phone looks for and sends no credential, and the site is told of none', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  expect(person.pseudonym, 'the first test registers the person').not.toBe('');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const mobile = await phone.newPage();
  const recorded: Request[] = [];
  phone.on('request', (request) => recorded.push(request));
  // As in the phone's journey above: its membership prover is in its cache before the session starts.
  const warmed = mobile.waitForResponse((r) => /\/artifacts\/semaphore-\d+\.zkey$/.test(new URL(r.url()).pathname));
  await mobile.goto('/user-verification');
  await (await warmed).finished();
  await startCredentialSignIn(page);
  await page.getByRole('button', { name: 'Verify on my phone instead', exact: true }).click();
  const link = decodeQrDataUrl((await page.locator('img.qr').getAttribute('src'))!);
  await mobile.goto(link!);
  const share = mobile.getByRole('checkbox', { name: 'Tell The Credential Site which organisation vouches for my ID', exact: true });
  await expect(share).toBeChecked();
  await share.uncheck();
  const posted = mobile.waitForRequest(
    (r) => r.method() === 'POST' && /^\/sessions\/[0-9a-f]{32}\/sign-in$/.test(new URL(r.url()).pathname),
  );
  await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(person.bio);
  await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  const body = (await posted).postDataJSON() as { proof: { nullifier: string }; credentialProof?: unknown };
  expect(body.proof.nullifier).toMatch(/^\d+$/);
  expect(body.credentialProof).toBeUndefined();
  await expect(mobile.getByTestId('sign-in-credential-outcome')).toHaveText(
    'You chose not to tell The Credential Site which organisation vouches for your ID: it will not be told of a credential.',
  );
  expect(recorded.filter((r) => new URL(r.url()).pathname === '/credential-members').map((r) => r.url())).toEqual([]);
  await typePhoneCodeOnScreen(mobile, page);
  await page.waitForURL(`${siteUrl}/`);
  await expect(page.locator('#signed-in')).toHaveText(person.pseudonym);
  await expect(page.locator('#credential')).toHaveText('No credential was shared: ZeroID vouches only for your pseudonym.');
  await phone.close();
});
