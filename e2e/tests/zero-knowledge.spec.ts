import { randomUUID } from 'node:crypto';
import { expect, test, type Request } from '@playwright/test';
import { registerThroughUi, verifyThroughUi } from './journeys.ts';
import { expectNoRequestCarries } from './requests-carry-none.ts';

test('P1: the raw ID and biometric never leave the browser, and verification sends a proof', async ({ page }) => {
  const tag = randomUUID();
  const id = `PASSPORT-${tag}`;
  const bio = `minutiae ${tag} ridge ending bifurcation 31 42 57`;
  const recorded: Request[] = [];
  page.on('request', (request) => recorded.push(request));
  // Under the server's real CSP: record every violation, from the page and from its workers' consoles.
  const cspProblems: string[] = [];
  page.on('console', (message) => /Content Security Policy|Refused to/i.test(message.text()) && cspProblems.push(message.text()));
  page.on('worker', (worker) =>
    worker.on('console', (message) => /Content Security Policy|Refused to/i.test(message.text()) && cspProblems.push(message.text())),
  );
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Refused to load: Content Security Policy ${event.violatedDirective}`),
    );
  });

  await registerThroughUi(page, id, bio);
  await verifyThroughUi(page, bio);
  await expect(page).toHaveURL(/\/user-authorised$/);

  expect(cspProblems).toEqual([]);
  const csp = (await page.request.get('/')).headersArray().find((h) => h.name.toLowerCase() === 'content-security-policy')?.value;
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");

  const texts = await expectNoRequestCarries(recorded, [id, bio]);
  expect(texts.length).toBeGreaterThan(8);

  const registration = recorded.find((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/register');
  // Protocol v3 (decision 056): the derived values, each round's blinded point alone (the single key
  // recomputes Z), the registration proof and the DID's signature.
  const registered = registration!.postDataJSON() as { bio: object; id: object; proof: string[] };
  expect(Object.keys(registered).sort()).toEqual(['bio', 'challenge', 'commitment', 'did', 'didSignature', 'id', 'idTag', 'proof']);
  expect([Object.keys(registered.bio), Object.keys(registered.id)]).toEqual([['blinded'], ['blinded']]);
  expect(registered.proof).toHaveLength(8);
  const rounds = recorded.filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/oprf');
  // v3 rounds for the biometric and the ID, then the biometric at verification; and one v2 round for
  // the biometric at registration, which looks for a v2 identity to move (decision 073).
  const suites = rounds.map((r) => (r.postDataJSON() as { suite?: string }).suite);
  expect(suites.filter((suite) => suite === 'ZeroID-OPRFv3-BabyJubJub-Poseidon2')).toHaveLength(3);
  expect(suites.filter((suite) => suite === undefined)).toHaveLength(1);
  expect(suites).toHaveLength(4);
  const verification = recorded.find((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/verify');
  const body = verification!.postDataJSON() as { proof: { points: string[]; message: string; scope: string } };
  expect(body.proof.points).toHaveLength(8);
  expect(body.proof.message).toBe(body.proof.scope);
  for (const request of recorded) expect(new URL(request.url()).origin).toBe(new URL(page.url()).origin);
});

test('the registration circuit loads as its screen opens; the page stays responsive while the proof is computed, and a second verification downloads no artifact', async ({
  page,
}) => {
  const tag = randomUUID();
  const bio = `iris ${tag} crypts 8 furrows 4`;
  // From the first page on: the app fetches the artifacts ahead of the first proof (decision 043).
  const artifactBytes: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/artifacts/semaphore-'))
      void response.body().then(
        (b) => artifactBytes.push(b.length),
        () => undefined,
      );
  });
  // The registration screen fetches its circuit and proving key as it opens, before the button
  // (decision 060); the proof's stage shows while the button stays off.
  const registrationKey = page.waitForResponse((response) => new URL(response.url()).pathname === '/artifacts/registration-v3.zkey');
  await page.goto('/register');
  expect((await registrationKey).ok()).toBe(true);
  await page.getByLabel('Enter ID:', { exact: true }).fill(`ID-${tag}`);
  await page.getByLabel('Biometric Data:', { exact: true }).fill(bio);
  const register = page.getByRole('button', { name: 'Register', exact: true });
  await register.click();
  await expect(page.getByText('Computing the zero-knowledge proof on this device…')).toBeVisible();
  await expect(register).toBeDisabled();
  await expect(page.getByText(/did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+/)).toBeVisible();

  await page.goto('/user-verification');
  // Record the longest gap between timer ticks on the main thread while the worker proves.
  await page.evaluate(() => {
    const w = window as unknown as { maxGap: number };
    w.maxGap = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      w.maxGap = Math.max(w.maxGap, now - last);
      last = now;
    }, 20);
  });
  const verifyOnce = async () => {
    await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(bio);
    await page.getByRole('button', { name: 'Verify User', exact: true }).click();
    await expect(page.getByText('Computing the zero-knowledge proof on this device…')).toBeVisible();
    await page.keyboard.type(' still typing');
    await expect(page).toHaveURL(/\/user-authorised$/);
  };
  await verifyOnce();
  const maxGap = await page.evaluate(() => (window as unknown as { maxGap: number }).maxGap);
  expect(maxGap).toBeLessThan(250);
  expect(artifactBytes.reduce((a, b) => a + b, 0)).toBeGreaterThan(1_000_000);

  artifactBytes.length = 0;
  await page.getByRole('link', { name: 'Back to the start' }).click();
  await page.getByRole('button', { name: 'Verification', exact: true }).click();
  await verifyOnce();
  expect(artifactBytes).toEqual([]);
});
