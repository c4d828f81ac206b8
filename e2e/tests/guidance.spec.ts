import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectNoViolationsAtEverySize } from './axe.ts';
import { holdPosts, registerThroughUi } from './journeys.ts';

/**
 * What a person is told, at once and exactly. Empty and over-long fields are refused on the
 * page before anything is sent (the server still checks), each under its own field and gone as soon as
 * that field changes; after registering, the DID can be copied and the next step is offered; a phone
 * that opens the QR code shows on the desktop; a lockout counts down with its button off. Every new
 * state passes axe at a desktop's width and a phone's.
 */

/** Every POST the page (or its prover worker) sends from now on. */
function postsFrom(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => request.method() === 'POST' && sent.push(new URL(request.url()).pathname));
  return sent;
}

test('an empty or over-long form is refused at once, each field named under it, each message gone when its field changes', async ({
  page,
}) => {
  await page.goto('/register');
  const sent = postsFrom(page);
  const register = page.getByRole('button', { name: 'Register', exact: true });
  const id = page.getByLabel('Enter ID:', { exact: true });
  const bio = page.getByLabel('Biometric Data:', { exact: true });
  await expect(page.getByText('Any text that identifies you', { exact: false })).toBeVisible();
  await register.click();
  await expect(page.getByRole('alert')).toHaveText([
    'The ID is empty. Please enter it and try again.',
    'The biometric data is empty. Please enter it and try again.',
  ]);
  await expect(id).toBeFocused();
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expectNoViolationsAtEverySize(page, 'register, both fields empty');

  await id.fill('ID-guidance');
  await expect(page.getByRole('alert')).toHaveText(['The biometric data is empty. Please enter it and try again.']);
  await expect(id).not.toHaveAttribute('aria-invalid', 'true');
  await bio.fill(' \n\t ');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await register.click();
  await expect(page.getByRole('alert')).toHaveText(['The biometric data is empty. Please enter it and try again.']);
  await expect(bio).toBeFocused();

  await page.goto('/user-verification');
  const verify = page.getByRole('button', { name: 'Verify User', exact: true });
  await verify.click();
  await expect(page.getByRole('alert')).toHaveText('The biometric data is empty. Please enter it and try again.');
  await expectNoViolationsAtEverySize(page, 'verification, empty');
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill('x'.repeat(16 * 1024 + 1));
  await expect(page.getByRole('alert')).toHaveCount(0);
  await verify.click();
  await expect(page.getByRole('alert')).toHaveText('The biometric data is too long (at most 16 KiB).');
  // Nothing went anywhere: no OPRF round, no challenge, no call.
  expect(sent).toEqual([]);
});

test('registered: the form is cleared, the DID copies, and the next step leads to verification, or to another device', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const did = await registerThroughUi(page, `GUIDE-${randomUUID()}`, `guidance biometric ${randomUUID()}`);
  await expect(page.getByLabel('Enter ID:', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Biometric Data:', { exact: true })).toHaveValue('');
  await page.getByRole('button', { name: 'Copy DID', exact: true }).click();
  await expect(page.getByText('Copied.', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(did);
  await expectNoViolationsAtEverySize(page, 'registered, DID copied');

  await page.getByRole('link', { name: 'Verify now', exact: true }).click();
  await expect(page).toHaveURL(/\/user-verification$/);
  await page.getByRole('link', { name: 'Verify on another device', exact: true }).click();
  await expect(page).toHaveURL(/\/generate-qr$/);
});

test('the desktop says a phone has opened its code, before the verdict', async ({ page, browser }) => {
  await page.goto('/generate-qr');
  await expect(page.locator('img.qr')).toBeVisible();
  await expect(page.getByText('Phone connected, waiting for it to verify…')).toHaveCount(0);

  // The phone opens the link the code holds (read from the session the page created).
  const created = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  const id = created.map((url) => /\/generateQRCode\?session=([0-9a-f]{32})/.exec(url)?.[1]).find(Boolean);
  expect(id).toMatch(/^[0-9a-f]{32}$/);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const mobile = await phone.newPage();
  await mobile.goto(`/user-verification?session=${id}`);
  await expect(mobile.getByText('You are completing a verification started on another screen.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Phone connected, waiting for it to verify…' })).toBeVisible();
  await expectNoViolationsAtEverySize(page, 'desktop, phone connected');

  // A biometric nobody registered: the phone stops before proving, and the desktop follows.
  await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(`nobody ${randomUUID()}`);
  await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(page).toHaveURL(/\/invalid-did$/);
  await phone.close();
});

test('a lockout counts down under its message, with the button off until it ends', async ({ page }) => {
  // The server's answer to a client past its failed verifications (RATE_LIMIT_PER_MINUTE is 0 here),
  // given to the first OPRF round.
  await page.route('**/oprf', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 429,
          headers: { 'retry-after': '3' },
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'TOO_MANY_FAILURES', message: 'Too many failed verifications. Please try again in 3 seconds.' },
          }),
        })
      : route.continue(),
  );
  await page.goto('/user-verification');
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill('locked out');
  const verify = page.getByRole('button', { name: 'Verify User', exact: true });
  await verify.click();
  await expect(page.getByRole('alert')).toHaveText('Too many failed verifications.');
  await expect(page.getByRole('timer')).toHaveText(/^You can try again in 0:0[1-3]\.$/);
  await expect(verify).toBeDisabled();
  await expectNoViolationsAtEverySize(page, 'verification, locked out');
  await expect(verify).toBeEnabled({ timeout: 10_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('at 390 px the progress line keeps its spinner beside its words', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { release } = await holdPosts(page, '**/oprf');
  await page.goto('/user-verification');
  await page.getByPlaceholder('Touch to verify!', { exact: true }).fill(`pending ${randomUUID()}`);
  await page.getByRole('button', { name: 'Verify User', exact: true }).click();
  const line = page.locator('form .progress');
  // Deriving, or still downloading the prover (a fresh browser has none cached): both on one line.
  await expect(line).toContainText(/Deriving your keys on this device…|Downloading the prover/);
  const spinner = (await line.locator('.spinner').boundingBox())!;
  const words = (await line.locator('span:not(.spinner)').boundingBox())!;
  expect(Math.abs(spinner.y + spinner.height / 2 - (words.y + words.height / 2))).toBeLessThan(words.height);
  expect(spinner.x + spinner.width).toBeLessThanOrEqual(words.x);
  await expectNoViolationsAtEverySize(page, 'verification, pending');
  release();
});

test('deleting an identity is confirmed with a danger-styled button; /user-authorised opened directly welcomes without claiming a verification', async ({
  page,
}) => {
  await page.goto('/erase');
  await page.getByLabel('Enter ID:', { exact: true }).fill('ID to delete');
  await page.getByLabel('Biometric Data:', { exact: true }).fill('biometric to delete');
  await page.getByRole('button', { name: 'Delete my identity', exact: true }).click();
  const confirm = page.getByRole('alertdialog').getByRole('button').first();
  await expect(confirm).toHaveCSS('background-color', 'rgb(164, 22, 26)');
  await expectNoViolationsAtEverySize(page, 'erase, confirming');

  await page.goto('/user-authorised');
  await expect(page.getByText('Welcome, How can we help you?!', { exact: true })).toBeVisible();
  await expect(page.getByTestId('not-verified-note')).toHaveText(/^Nobody has been verified in this tab/);
  await expect(page.getByRole('heading', { level: 1, name: 'Verified' })).toHaveCount(0);
  await expectNoViolationsAtEverySize(page, '/user-authorised opened directly');
});
