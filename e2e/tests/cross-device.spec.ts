import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { registerThroughUi, typePhoneCodeOnScreen, verifyThroughUi } from './journeys.ts';
import { decodeQrDataUrl } from './qr.ts';

/**
 * A desktop shows the QR code; a phone (another browser context) scans it and verifies, then shows a
 * code that the person types on the desktop (decision 035). The link carries the session id only: the
 * secret that reads the outcome never leaves the desktop, and it is not in the QR code.
 */
async function showQr(page: Page): Promise<{ link: string; secret: string }> {
  const created = page.waitForResponse((r) => r.url().endsWith('/sessions') && r.request().method() === 'POST');
  await page.goto('/generate-qr');
  const { secret } = (await (await created).json()) as { secret: string };
  const img = page.locator('img.qr');
  await expect(img).toBeVisible();
  await expect(page.getByRole('timer')).toContainText(/This code expires in \d:\d\d/);
  const link = decodeQrDataUrl((await img.getAttribute('src'))!);
  expect(link).toMatch(/\/user-verification\?session=[0-9a-f]{32}$/);
  expect(link).not.toContain(secret);
  return { link: link!, secret };
}

async function phoneWithIdentity(browser: Browser) {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await phone.newPage();
  const bio = `phone biometric ${randomUUID()}`;
  await registerThroughUi(page, `PHONE-${randomUUID()}`, bio);
  return { phone, page, bio };
}

test('a phone completes the session, shows a code, and the desktop moves on once its person types it; the link cannot be used again', async ({
  page,
  browser,
}) => {
  // The phone registers first: a registration's proof takes seconds, and the session lives 20 s.
  const { phone, page: mobile, bio } = await phoneWithIdentity(browser);
  const { link, secret } = await showQr(page);

  // Only the desktop can read the outcome: the phone, and anyone else holding the link, cannot.
  const session = new URL(link).searchParams.get('session')!;
  const asPhone = await mobile.request.get(`/sessions/${session}`);
  expect(asPhone.status()).toBe(403);
  expect((await mobile.request.get(`/sessions/${session}`, { headers: { 'session-secret': secret } })).status()).toBe(200);

  await mobile.goto(link);
  await expect(mobile.getByText('You are completing a verification started on another screen.')).toBeVisible();
  await verifyThroughUi(mobile, bio, link);
  await expect(mobile).toHaveURL(/\/user-authorised$/);
  await expect(mobile.getByText('To finish on the other screen, type this code there:')).toBeVisible();
  // The desktop waits for the code; a wrong one is refused, the phone's lets it move on.
  const field = page.getByLabel('Your phone shows a code. Type it here to continue on this screen:');
  await expect(field).toBeVisible();
  const shown = (await mobile.getByTestId('confirmation-code').textContent())!;
  await field.fill(shown === '000000' ? '000001' : '000000');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('That is not the code your phone shows. 4 more tries');
  await expect(page).toHaveURL(/\/generate-qr$/);
  await typePhoneCodeOnScreen(mobile, page);
  await expect(page).toHaveURL(/\/user-authorised$/);
  await expect(page.getByText('Welcome, How can we help you?!', { exact: true })).toBeVisible();

  // The used link: the phone's screen does not offer its session again, and the server refuses it.
  await mobile.goto(link);
  await expect(mobile.getByRole('alert')).toContainText('expired or was already used');
  await expect(mobile.getByRole('button', { name: 'Verify User', exact: true })).toBeDisabled();
  const again = await mobile.request.post('/verify', { data: { bio_info: bio, session } });
  expect(await again.json()).toMatchObject({ 'Verification Result': 'Failure' });
  await phone.close();
});

test('an unregistered biometric goes to the invalid page on the phone, sending no proof, and the desktop follows at once', async ({
  page,
  browser,
}) => {
  const { link } = await showQr(page);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const mobile = await phone.newPage();
  const sent: string[] = [];
  mobile.on('request', (r) => r.method() === 'POST' && sent.push(new URL(r.url()).pathname));
  await mobile.goto(link);
  await expect(mobile.getByText('You are completing a verification started on another screen.')).toBeVisible();
  // Unknown to the registry: the phone finds no commitment in its bucket, stops before proving, and
  // reports the failure to the session, so the desktop does not wait for the expiry.
  const started = Date.now();
  await mobile.getByPlaceholder('Touch to verify!', { exact: true }).fill(`stranger ${randomUUID()}`);
  await mobile.getByRole('button', { name: 'Verify User', exact: true }).click();
  await expect(mobile).toHaveURL(/\/invalid-did$/);
  await expect(page).toHaveURL(/\/invalid-did$/, { timeout: 10_000 });
  expect(Date.now() - started).toBeLessThan(15_000); // sessions live 20 s here: this was not the expiry
  expect(sent).not.toContain('/verify');
  expect(sent).toContain(`/sessions/${new URL(link).searchParams.get('session')}/failure`);
  await phone.close();
});

test('a session expires with a visible countdown, and its link then refuses to verify', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { link } = await showQr(page);
  await expect(page.getByText('This QR code has expired.')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('img.qr')).toHaveCount(0);
  // The lead no longer asks for a scan: it says the link has expired and what to do.
  await expect(page.getByText('Scan this code with your phone', { exact: false })).toHaveCount(0);
  await expect(page.getByTestId('qr-lead')).toHaveText(
    'The link in this code has expired: a phone can no longer verify with it. Make a new code, then scan that one.',
  );

  const { phone, page: mobile, bio } = await phoneWithIdentity(browser);
  await mobile.goto(link);
  await expect(mobile.getByRole('alert')).toContainText('expired or was already used');
  // The phone's screen does not offer the dead session; the server refuses it anyway.
  await expect(mobile.getByRole('button', { name: 'Verify User', exact: true })).toBeDisabled();
  const late = await mobile.request.post('/verify', { data: { bio_info: bio, session: new URL(link).searchParams.get('session') } });
  expect(await late.json()).toMatchObject({ 'Verification Result': 'Failure' });

  await page.getByRole('button', { name: 'New code' }).click();
  await expect(page.locator('img.qr')).toBeVisible();
  await phone.close();
});

test('a session id that does not exist is refused at once', async ({ browser }) => {
  const phone = await browser.newContext();
  const mobile = await phone.newPage();
  await mobile.goto(`/user-verification?session=${'0'.repeat(32)}`);
  await expect(mobile.getByRole('alert')).toContainText('not valid');
  await phone.close();
});

test("a stranger who saw the QR code completes the session with a raw /verify: the desktop does not move on without its person's code", async ({
  page,
  browser,
}) => {
  const { phone, page: attacker, bio } = await phoneWithIdentity(browser);
  const { link } = await showQr(page);
  const session = new URL(link).searchParams.get('session')!;
  const attack = await attacker.request.post('/verify', { data: { bio_info: bio, session } });
  expect(await attack.json()).toMatchObject({ 'Verification Result': 'Success', 'Confirmation Code': expect.stringMatching(/^[0-9]{6}$/) });
  const field = page.getByLabel('Your phone shows a code. Type it here to continue on this screen:');
  await expect(field).toBeVisible();
  // The person at the desktop has no such code: whatever they type, the desktop never shows them verified.
  for (let i = 0; i < 5; i++) {
    await field.fill(String(100000 + i));
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    if (i < 4) await expect(page.getByRole('alert')).toContainText('That is not the code your phone shows.');
  }
  await expect(page).toHaveURL(/\/invalid-did$/);
  await phone.close();
});
